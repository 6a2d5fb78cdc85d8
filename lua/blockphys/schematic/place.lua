--- The last phase of `paste`: the block types defined and the cells set in the
-- world, once `blockphys.schematic.paste` has checked everything.
--
-- Each call of the world's methods here goes through pcall with no function of
-- ours in between, so that the core's own errors ("not enough memory", "size
-- limit exceeded", which the core words with its caller's position) carry no
-- position of this file: `paste` raises them at its caller's line, or turns a
-- destroyed world into its own error. Nothing here decides what a failure means.
--
-- Source: our own.
--
-- @module blockphys.schematic.place
-- @local

local compat = require "blockphys.compat"
local cells = require "blockphys.schematic.cells"

local place = {}

local unpack = compat.bytes.unpack
local floor = math.floor
local byte, char, find = string.byte, string.char, string.find
local CELL_FORMATS = cells.FORMATS

-- Block ids for the definitions, reusing types the world already has (after
-- paste's checks a definition can fail here only for lack of memory); or nil, the
-- error and whether the world was being changed (define_block) when it failed.
local function define_all(world, defs, npal)
  local ids = {}
  for i = 1, npal do
    local def = defs[i]
    if def then
      local ok, id = pcall(world.block_id, world, def.name)
      if not ok then return nil, id, false end
      if not id then
        ok, id = pcall(world.define_block, world, def)
        if not ok then return nil, id, true end
      end
      ids[i] = id
    end
  end
  return ids
end

-- A pattern that matches a run of one-byte cells whose palette entries place
-- nothing (air), anchored where the search starts; nil if there are none.
local function air_run_pattern(ids, npal)
  local set = {}
  for i = 0, math.min(npal, 256) - 1 do
    if not ids[i + 1] then
      local c = char(i)
      -- escapes never make a class; "%z" is the zero byte where "%\0" ends the pattern
      set[#set + 1] = i == 0 and compat.PATTERN_NUL or c:match("%w") and c or "%" .. c
    end
  end
  return #set > 0 and "^[" .. table.concat(set) .. "]+" or nil
end

-- place_cells for one-byte cells: string.find skips runs of air cells in C, so a
-- box that is mostly air costs its blocks, not its volume.
local function place_bytes(world, schem, ids, x, y, z)
  local blocks, w, l = schem.blocks, schem.width, schem.length
  local air = air_run_pattern(ids, #schem.palette)
  local plane, n, pos, placed = w * l, #blocks, 1, 0
  while pos <= n do
    if air then
      local _, e = find(blocks, air, pos)
      if e then pos = e + 1 end
    end
    if pos > n then break end
    local i = pos - 1
    local ok, err = pcall(world.set_block, world, x + i % w, y + floor(i / plane), z + floor(i / w) % l,
      ids[byte(blocks, pos) + 1])
    if not ok then return nil, err end
    placed = placed + 1
    pos = pos + 1
  end
  return placed
end

-- Set the schematic's non-air cells (ids: block id per palette entry) with the
-- minimum corner at (x, y, z). Returns the number of blocks set, or nil and the
-- error of the set_block that failed.
local function place_cells(world, schem, ids, x, y, z)
  if schem.cell_bytes == 1 then return place_bytes(world, schem, ids, x, y, z) end
  local blocks, nb, w, l = schem.blocks, schem.cell_bytes, schem.width, schem.length
  local fmt, plane, placed = CELL_FORMATS[nb], w * l, 0
  -- By cell, not by (y, z, x): a box with a zero extent (no cells) then costs nothing
  for pos = 1, #blocks, nb do
    local id = ids[unpack(fmt, blocks, pos) + 1]
    if id then
      local i = floor((pos - 1) / nb)
      local ok, err = pcall(world.set_block, world, x + i % w, y + floor(i / plane), z + floor(i / w) % l, id)
      if not ok then return nil, err end
      placed = placed + 1
    end
  end
  return placed
end

--- Defines the types of `defs` (one definition per palette entry of `schem`, nil
-- for air) that the world lacks and sets the schematic's non-air cells with the
-- minimum corner at (x, y, z).
-- @param world the checked world
-- @tparam table schem paste's checked copy of the schematic
-- @tparam table defs
-- @tparam integer x
-- @tparam integer y
-- @tparam integer z
-- @treturn[1] integer the number of blocks set
-- @return[2] nil
-- @return[2] the error a world method raised
-- @treturn[2] boolean whether that method changes the world (define_block,
--   set_block) rather than reads it (block_id)
function place.into(world, schem, defs, x, y, z)
  local ids, err, changing = define_all(world, defs, #schem.palette)
  if not ids then return nil, err, changing end
  local placed
  placed, err = place_cells(world, schem, ids, x, y, z)
  if not placed then return nil, err, true end
  return placed
end

return place
