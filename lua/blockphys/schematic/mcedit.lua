--- MCEdit and Schematica schematics (`.schematic`) for `blockphys.schematic.load`:
-- pre-1.13 numeric block ids (Blocks, and AddBlocks for ids past 255) and
-- metadata (Data), one byte per cell in Sponge order, turned into modern states.
--
-- Source: the MCEdit/Schematica `.schematic` layout as published by those
-- projects; our own reader.
--
-- @module blockphys.schematic.mcedit
-- @local

local compat = require "blockphys.compat"
local nbt = require "blockphys.nbt"
local cells = require "blockphys.schematic.cells"
local legacy_ids = require "blockphys.schematic.legacy_ids"
local legacy_connect = require "blockphys.schematic.legacy_connect"

local mcedit = {}

local format, floor = string.format, math.floor
local byte = string.byte
local concat = table.concat
local is_int = compat.is_integer
local PACK_CHUNK, pack_cells, cell_bytes_for = cells.PACK_CHUNK, cells.pack, cells.bytes_for

local DOOR_IDS = { [64] = true, [71] = true, [193] = true, [194] = true, [195] = true,
  [196] = true, [197] = true }

local function legacy_id(blocks, add, i)
  local id = byte(blocks, i + 1)
  if add then
    local a = byte(add, floor(i / 2) + 1)
    -- AddBlocks packs two cells per byte: even cells in the low nibble (its value
    -- is bits 8..11 of the id, which Blocks leaves clear).
    if a then id = id + (i % 2 == 0 and a % 16 or floor(a / 16)) * 256 end
  end
  return id
end

--- Reads an MCEdit / Schematica document's root compound (its `Blocks` a byte
-- array): numeric ids (Blocks + AddBlocks) and metadata (Data) become modern
-- states (`legacy_ids`), with connections and stair shapes from the neighbours
-- (`legacy_connect`).
-- @treturn[1] table the fields of a loaded schematic (see `blockphys.schematic`),
--   `format = "mcedit"`
-- @return[2] nil
-- @treturn[2] string message
function mcedit.parse(s)
  local w, h, l = cells.dimensions(s)
  if not w then return nil, h end
  if s.Materials ~= nil and s.Materials ~= "Alpha" then
    local m = s.Materials
    -- a string as written; any other tag by its kind (never an address)
    local what = type(m) == "string" and format("%q", m)
      or type(m) == "table" and "(a " .. (nbt.kind(m) or "table") .. ")" or tostring(m)
    return nil, format("unsupported MCEdit Materials %s (only Alpha)", what)
  end
  local ncells = w * h * l
  local blocks, data, add = s.Blocks, s.Data, s.AddBlocks
  if type(data) ~= "string" then return nil, "missing or invalid Data" end
  if add ~= nil and type(add) ~= "string" then return nil, "invalid AddBlocks" end
  if #blocks < ncells then
    return nil, format("Blocks too short: %d cells, got %d bytes", ncells, #blocks)
  end
  if #data < ncells then
    return nil, format("Data too short: %d cells, got %d bytes", ncells, #data)
  end
  local palette, index_of, buf = {}, {}, {}
  local plane = w * l
  -- The cell being read, for the two neighbour functions (made once per load).
  local i, x, z, y = 0, 0, 0, 0
  local function meta_at(dy) -- doors read their other half: the same block only
    local yy = y + dy
    if yy < 0 or yy >= h then return nil end
    local j = i + dy * plane
    if legacy_id(blocks, add, j) ~= legacy_id(blocks, add, i) then return nil end
    return byte(data, j + 1) % 16
  end
  local function neighbour(dx, dz, dy) -- connections and stair shapes (legacy_connect)
    dy = dy or 0
    local xx, zz, yy = x + dx, z + dz, y + dy
    if xx < 0 or xx >= w or zz < 0 or zz >= l or yy < 0 or yy >= h then return nil end
    local j = i + dx + dz * w + dy * plane
    return legacy_id(blocks, add, j), byte(data, j + 1) % 16
  end
  local function entry(state) -- the 1-based palette index of a state
    local pi = index_of[state]
    if not pi then
      palette[#palette + 1] = state
      pi = #palette
      index_of[state] = pi
    end
    return pi
  end
  -- Cells are packed as they are read, PACK_CHUNK at a time, two bytes each (a
  -- table of one number per cell took 16 bytes per cell: gigabytes for the
  -- largest files); narrowed to one byte at the end if the palette allows.
  local pieces, k = {}, 0
  for cell = 0, ncells - 1 do
    i = cell
    local id, meta = legacy_id(blocks, add, i), byte(data, i + 1) % 16
    local key = id * 16 + meta
    local pi = index_of[key]
    if not pi then
      x, z, y = i % w, floor(i / w) % l, floor(i / plane)
      -- A connecting block or stair: cached by its neighbour code as well.
      local code = legacy_connect.code(id, meta, neighbour)
      local ckey = code and (key * 64 + code) * -1 - 1 -- negative: apart from plain keys
      pi = ckey and index_of[ckey]
      if not pi then
        local state = legacy_ids.state(id, meta, meta_at)
        if code then state = legacy_connect.apply(id, state, code) end
        pi = entry(state)
        if ckey then index_of[ckey] = pi end
      end
      -- Doors depend on their other half, connecting blocks and stairs on their
      -- neighbours, so their states are not cached by id and metadata alone.
      if not DOOR_IDS[id] and not code then index_of[key] = pi end
    end
    k = k + 1
    buf[k] = pi - 1
    if k == PACK_CHUNK then
      pieces[#pieces + 1] = pack_cells(buf, k, 2)
      k = 0
    end
  end
  if k > 0 then pieces[#pieces + 1] = pack_cells(buf, k, 2) end
  local nb = cell_bytes_for(#palette)
  if nb == 1 then
    -- every index is below 256: each big-endian pair is a zero and the index byte
    local pair = (compat.PATTERN_NUL or "\0") .. "(.)"
    for j, piece in ipairs(pieces) do pieces[j] = piece:gsub(pair, "%1") end
  end
  local offset = { 0, 0, 0 }
  for j, key in ipairs({ "WEOffsetX", "WEOffsetY", "WEOffsetZ" }) do
    if is_int(s[key]) then offset[j] = s[key] end
  end
  return {
    width = w, height = h, length = l, offset = offset, palette = palette,
    blocks = concat(pieces), cell_bytes = nb, format = "mcedit",
  }
end

return mcedit
