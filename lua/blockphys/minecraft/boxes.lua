--- Box, direction and property helpers of the shape tables (`blockphys.minecraft` and its
-- Beta 1.7.3 variant).
--
-- Conventions: block-local coordinates, (0,0,0) is the cell's minimum corner; Y
-- up; north = -Z, south = +Z, west = -X, east = +X. A box is
-- `{x1, y1, z1, x2, y2, z2}` with min <= max. Shapes are written in sixteenths of
-- a block (the wiki's "pixels"), so every coordinate is exact in binary floating
-- point. Shapes with a facing are written once, for north, and turned.
--
-- Source: our own.
--
-- @module blockphys.minecraft.boxes
-- @local

local boxes = {}

--- A box from coordinates in sixteenths of a block.
function boxes.px(x1, y1, z1, x2, y2, z2)
  return { x1 / 16, y1 / 16, z1 / 16, x2 / 16, y2 / 16, z2 / 16 }
end
local px = boxes.px

-- The unit cube (a plain comment: LDoc documents no table of array entries).
boxes.FULL = { 0, 0, 0, 1, 1, 1 }

--- No boxes: a block an entity walks through.
boxes.NONE = {}

--- A set of the arguments: `set("a", "b")` is `{a = true, b = true}`.
function boxes.set(...)
  local t = {}
  for _, v in ipairs({ ... }) do t[v] = true end
  return t
end

-- Quarter turns clockwise (seen from above) that bring north onto each
-- horizontal direction.
local TURNS = { north = 0, east = 1, south = 2, west = 3 }

-- One quarter turn clockwise about the cell's vertical centre line:
-- the north edge (z = 0) goes to the east edge (x = 1).
local function turn_once(b)
  return { 1 - b[6], b[2], b[1], 1 - b[3], b[5], b[4] }
end

--- The boxes of a north-facing shape turned to face `facing` (a horizontal
-- direction; anything else leaves them as they are).
function boxes.rotate(list, facing)
  local n = TURNS[facing] or 0
  local out = {}
  for i, b in ipairs(list) do
    for _ = 1, n do b = turn_once(b) end
    out[i] = b
  end
  return out
end

--- A copy of boxes, so that callers can never modify the tables the shape
-- tables share; every coordinate becomes a float so all boxes look alike.
function boxes.copy(list)
  local out = {}
  for i, b in ipairs(list) do
    out[i] = { b[1] + 0.0, b[2] + 0.0, b[3] + 0.0, b[4] + 0.0, b[5] + 0.0, b[6] + 0.0 }
  end
  return out
end

--- Directions to the left of a horizontal facing (as seen by someone looking that way).
boxes.LEFT = { north = "west", west = "south", south = "east", east = "north" }
--- Directions to the right of a horizontal facing.
boxes.RIGHT = { north = "east", east = "south", south = "west", west = "north" }
--- The opposite of each direction, up and down included.
boxes.OPPOSITE = { north = "south", south = "north", east = "west", west = "east", up = "down", down = "up" }
--- The axis of each direction.
boxes.AXIS_OF = { north = "z", south = "z", east = "x", west = "x", up = "y", down = "y" }

--- Property values the shape families accept.
boxes.FACING4 = boxes.set("north", "east", "south", "west")
boxes.FACING6 = boxes.set("north", "east", "south", "west", "up", "down")
boxes.BOOL = boxes.set("true", "false")
boxes.HALF = boxes.set("bottom", "top")

--- A box grown from the face opposite `facing` (the face it is attached to):
-- height h out of that face, inset o on the other two axes (sixteenths).
function boxes.grown(facing, h, o)
  if facing == "up" then return px(o, 0, o, 16 - o, h, 16 - o) end
  if facing == "down" then return px(o, 16 - h, o, 16 - o, 16, 16 - o) end
  return boxes.rotate({ px(o, o, 16 - h, 16 - o, 16 - o, 16) }, facing)[1]
end

--- Cauldron-like blocks: a floor `floor` sixteenths high and four 2/16 walls,
-- open on top.
function boxes.basin(floor)
  return {
    px(0, 0, 0, 16, floor, 16),
    px(0, floor, 0, 2, 16, 16), px(14, floor, 0, 16, 16, 16),
    px(2, floor, 0, 14, 16, 2), px(2, floor, 14, 14, 16, 16),
  }
end

--- Cauldrons: a basin whose 1/16 floor (3/16 up) stands on four L-shaped
-- corner legs 3/16 high.
function boxes.cauldron()
  local list = boxes.basin(4)
  list[1] = px(0, 3, 0, 16, 4, 16)
  local legs = {
    px(0, 0, 0, 4, 3, 2), px(0, 0, 2, 2, 3, 4), px(12, 0, 0, 16, 3, 2), px(14, 0, 2, 16, 3, 4),
    px(0, 0, 14, 4, 3, 16), px(0, 0, 12, 2, 3, 14), px(12, 0, 14, 16, 3, 16), px(14, 0, 12, 16, 3, 14),
  }
  for _, b in ipairs(legs) do list[#list + 1] = b end
  return list
end

return boxes
