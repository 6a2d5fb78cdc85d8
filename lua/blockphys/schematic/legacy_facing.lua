--- The facing encodings of legacy (pre-1.13) block metadata: each table maps a
-- metadata value (or the part of it that holds the facing) to a modern facing.
--
-- `legacy_ids` reads them to write a cell's state, and `legacy_connect` to read
-- the facing of a neighbouring stair or gate from its metadata; both require this
-- module rather than one exporting its tables to the other.
--
-- Source: the metadata encodings of the game before 1.13 (the block classes
-- named below); our own tables.
--
-- @module blockphys.schematic.legacy_facing
-- @local

return {
  --- Metadata 2..5 -> facing (ladders, furnaces, chests, wall signs, ...).
  FACE_2345 = { [2] = "north", [3] = "south", [4] = "west", [5] = "east" },
  --- EnumFacing.getFront(v): the facing of index v (down, up, north, south, west,
  -- east); callers take v mod 6.
  FRONT = { [0] = "down", "up", "north", "south", "west", "east" },
  --- Stair metadata & 3 -> facing (BlockStairs).
  STAIRS = { [0] = "east", "west", "south", "north" },
  --- EnumFacing.getHorizontal(v): south, west, north, east (fence gates, BlockBed,
  -- BlockCocoa, ...).
  HORIZONTAL = { [0] = "south", "west", "north", "east" },
}
