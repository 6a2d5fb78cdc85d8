--- Vanilla structure files (`.nbt`, as structure blocks save them) for
-- `blockphys.schematic.load`.
--
-- The document lists only the blocks the structure holds: `size` (3 ints),
-- `palette` (`{Name, Properties}` compounds; a structure with several variants has
-- `palettes` instead, and the first one is used, as the game reads `palettes` first;
-- an empty palette is a structure of nothing), and `blocks`, each `{pos = {x, y, z},
-- state = palette index}` (a position listed twice, which the game never writes,
-- takes its later entry). Cells the file does not list (structure void) become air, which
-- `paste` leaves as it was in the world; so does air the file lists (the game's
-- structure block would place it).
--
-- Source: the structure file format as the Minecraft Wiki's "Structure file" page
-- describes it; our own reader.
--
-- @module blockphys.schematic.structure
-- @local

local compat = require "blockphys.compat"
local nbt = require "blockphys.nbt"
local cells = require "blockphys.schematic.cells"

local structure = {}

local format = string.format
local AIR = "minecraft:air"

--- Whether a decoded root compound looks like a structure file.
function structure.detect(root)
  return nbt.kind(root.size) == "list" and nbt.kind(root.blocks) == "list"
end

local function size_of(list)
  if #list ~= 3 then return nil, "size must be a list of 3 ints" end
  for i = 1, 3 do
    if not cells.int_in(list[i], 0, 65535) then
      return nil, format("size[%d] must be an integer in 0..65535", i - 1)
    end
  end
  return list[1], list[2], list[3]
end

-- The palette: the first of `palettes` when the file has some (StructureTemplate.load
-- reads `palettes` first; an empty `palettes` leaving `palette` is our own choice),
-- else `palette`; an empty list (a structure of nothing but structure voids, which
-- the game writes) is an empty palette.
local function palette_of(root)
  local list, where = root.palette, "palette"
  if nbt.kind(root.palettes) == "list" and #root.palettes > 0 then
    list, where = root.palettes[1], "palettes[0]"
  end
  if nbt.kind(list) == "list" and #list == 0 then return {} end
  return cells.palette_list(list, where, cells.MAX_PALETTE)
end

-- The cell index (0-based, Sponge order) of blocks entry i, and its palette index.
local function entry_cell(e, i, w, h, l, npal)
  local where = format("blocks entry %d", i - 1)
  if nbt.kind(e) ~= "compound" then return nil, where .. " is not a compound" end
  local pos = e.pos
  if nbt.kind(pos) ~= "list" or #pos ~= 3 then
    return nil, where .. ": pos must be a list of 3 ints"
  end
  local x, y, z = pos[1], pos[2], pos[3]
  if not (cells.int_in(x, 0, w - 1) and cells.int_in(y, 0, h - 1) and cells.int_in(z, 0, l - 1)) then
    return nil, format("%s: pos outside the size %dx%dx%d", where, w, h, l)
  end
  if npal == 0 then return nil, where .. ": a block, but the palette is empty" end
  if not cells.int_in(e.state, 0, npal - 1) then
    return nil, format("%s: state must be an index into the palette (0..%d)", where, npal - 1)
  end
  return x + z * w + y * w * l, e.state
end

-- The listed cells as a map cell -> palette index, and their cells sorted.
local function listed_cells(blocks, w, h, l, npal)
  local state_at, order = {}, {}
  for i = 1, #blocks do
    local cell, st = entry_cell(blocks[i], i, w, h, l, npal)
    if not cell then return nil, st end
    if not state_at[cell] then order[#order + 1] = cell end
    state_at[cell] = st -- listed twice (the game never writes it): the later entry wins
  end
  table.sort(order) -- integers: compared in C
  return state_at, order
end

-- The cell string: listed cells in order, the gaps between them air.
local function cell_string(state_at, order, ncells, air, nb)
  local out, next_cell = cells.packer(nb), 0
  for _, cell in ipairs(order) do
    if cell > next_cell then out.run(air, cell - next_cell) end
    out.push(state_at[cell])
    next_cell = cell + 1
  end
  if ncells > next_cell then out.run(air, ncells - next_cell) end
  return out.result()
end

--- Parses a structure document's root compound. Returns the fields of a loaded
-- schematic (see `blockphys.schematic`) with `format = "structure"`, or nil and a
-- message. `max_bytes` bounds the cell string (cells × bytes per cell), since the
-- file lists only some of its cells.
function structure.parse(root, max_bytes)
  local w, h, l = size_of(root.size)
  if not w then return nil, h end
  local palette, perr = palette_of(root)
  if not palette then return nil, perr end
  local npal = #palette
  local state_at, order = listed_cells(root.blocks, w, h, l, npal)
  if not state_at then return nil, order end
  local ncells = w * h * l
  local air = npal -- index of "minecraft:air", appended when the file has none
  for i, state in ipairs(palette) do
    if state == AIR then air = i - 1; break end
  end
  if air == npal and #order < ncells then palette[npal + 1] = AIR end
  local nb = cells.bytes_for(#palette)
  if ncells * nb > max_bytes then
    return nil, format("structure of %dx%dx%d cells would take %d bytes (max_bytes %d)",
      w, h, l, ncells * nb, max_bytes)
  end
  return {
    width = w, height = h, length = l, offset = { 0, 0, 0 }, palette = palette,
    blocks = cell_string(state_at, order, ncells, air, nb), cell_bytes = nb,
    format = "structure",
    data_version = compat.is_integer(root.DataVersion) and root.DataVersion or nil,
  }
end

return structure
