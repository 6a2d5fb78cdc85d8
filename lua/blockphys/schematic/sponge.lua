--- Sponge schematics (`.schem`, versions 1 to 3) for `blockphys.schematic.load`:
-- a Palette compound (state -> index) and BlockData, one unsigned LEB128 varint
-- per cell in Sponge order.
--
-- Source: the Sponge Schematic Specification (versions 1 to 3); our own reader.
--
-- @module blockphys.schematic.sponge
-- @local

local compat = require "blockphys.compat"
local nbt = require "blockphys.nbt"
local parse_state = require("blockphys.state").parse_state
local cells = require "blockphys.schematic.cells"

local sponge = {}

local format = string.format
local byte, char = string.byte, string.char
local concat = table.concat
local is_int = compat.is_integer
local PACK_CHUNK, pack_cells, cell_bytes_for = cells.PACK_CHUNK, cells.pack, cells.bytes_for

local function is_compound(v) return nbt.kind(v) == "compound" end

local function int_array_offset(v)
  if v == nil then return { 0, 0, 0 } end
  if nbt.kind(v) ~= "int_array" or #v ~= 3 then
    return nil, "invalid Offset (expected an int array of 3)"
  end
  return { v[1], v[2], v[3] }
end

-- Palette compound (state -> 0-based index) to a 1-based array of states. The
-- specification only recommends indices 0..n-1 with no gap, and WorldEdit's reader
-- takes any: an index may be any integer up to cells.MAX_PALETTE - 1, and the
-- indices no entry names read as air. Two entries may not share an index.
local function palette_array(c, where)
  if not is_compound(c) then return nil, "missing or invalid " .. where end
  -- (at most cells.MAX_PALETTE entries: `load` decodes no larger compound)
  local entries = {}
  for state, idx in pairs(c) do entries[#entries + 1] = { state, idx } end
  if #entries == 0 then return nil, where .. " is empty" end
  -- Checked in name order, so that of several problems the same one is reported
  -- in every run (pairs follows the hash order, which Lua seeds per state).
  table.sort(entries, function(a, b) return a[1] < b[1] end)
  local out, top = {}, 0 -- top: the highest index named, + 1
  for _, e in ipairs(entries) do
    local state, idx = e[1], e[2]
    if not is_int(idx) then
      return nil, format("%s entry %q has a non-integer index", where, state)
    end
    if idx < 0 or idx >= cells.MAX_PALETTE then
      return nil, format("%s index %d of %q out of range 0..%d", where, idx, state,
        cells.MAX_PALETTE - 1)
    end
    if out[idx + 1] then
      return nil, format("%s index %d used twice", where, idx)
    end
    local ok, err = parse_state(state)
    if not ok then return nil, format("%s entry: %s", where, err) end
    out[idx + 1] = state
    top = math.max(top, idx + 1)
  end
  for i = 1, top do out[i] = out[i] or "minecraft:air" end
  return out
end

-- Fast path: every index fits in one byte below 128, so BlockData already
-- is the cell string. Checked with one pattern scan for an out-of-range byte.
local function single_byte_cells(data, ncells, npal)
  if #data ~= ncells or npal > 128 then return nil end
  local last = char(npal - 1)
  -- ']' and '%' cannot end a range in a Lua pattern set; use the slow path.
  if last == "]" or last == "%" then return nil end
  local nul = compat.PATTERN_NUL -- Lua 5.1 and LuaJIT: "%z" and the rest from "\1"
  local set = not nul and "\0-" .. last or last == "\0" and nul or nul .. "\1-" .. last
  if data:find("[^" .. set .. "]") then return nil end
  return data
end

-- Decodes one varint at `pos`; returns value and next position, or nil and
-- a message.
local function read_varint(data, pos, len)
  local value, scale = 0, 1
  for i = 0, 4 do
    if pos + i > len then return nil, "truncated varint at the end of the block data" end
    local b = byte(data, pos + i)
    value = value + (b % 128) * scale -- value | (b & 0x7F) << 7i: below 2^35
    if b < 0x80 then
      if value > 0x7FFFFFFF then
        return nil, format("varint at byte %d exceeds 32 bits", pos - 1)
      end
      return value, pos + i + 1
    end
    scale = scale * 128
  end
  return nil, format("varint at byte %d is longer than 5 bytes", pos - 1)
end

local function varint_cells(data, ncells, npal, where)
  local nb = cell_bytes_for(npal)
  local len = #data
  local pieces, buf, k = {}, {}, 0
  local pos = 1
  for cell = 1, ncells do
    if pos > len then
      return nil, format("%s too short: ends after %d of %d cells", where, cell - 1, ncells)
    end
    -- Most indices fit in one byte; only longer varints take the call.
    local v, nxt = byte(data, pos), pos + 1
    if v >= 0x80 then
      v, nxt = read_varint(data, pos, len)
      if not v then return nil, where .. ": " .. nxt end
    end
    if v >= npal then
      return nil, format("%s cell %d: palette index %d out of range (palette has %d entries)",
        where, cell - 1, v, npal)
    end
    pos = nxt
    k = k + 1
    buf[k] = v
    if k == PACK_CHUNK then
      pieces[#pieces + 1] = pack_cells(buf, k, nb)
      k = 0
    end
  end
  if pos <= len then
    return nil, format("%s has %d bytes after the last of %d cells", where, len - pos + 1, ncells)
  end
  if k > 0 then pieces[#pieces + 1] = pack_cells(buf, k, nb) end
  return concat(pieces), nb
end

local function sponge_cells(data, ncells, palette, where)
  if type(data) ~= "string" then return nil, "missing or invalid " .. where end
  -- Every cell takes at least one byte, so a size header claiming more
  -- cells than there are bytes is rejected before any allocation.
  if ncells > #data then
    return nil, format("%s too short: %d cells need at least %d bytes, got %d",
      where, ncells, ncells, #data)
  end
  local npal = #palette
  local fast = single_byte_cells(data, ncells, npal)
  if fast then return fast, 1 end
  return varint_cells(data, ncells, npal, where)
end

--- Reads a Sponge document: `s` is the root compound (v1, v2) or its `Schematic`
-- compound (v3), `version` its Version, 1..3. v1/v2 hold Palette and BlockData
-- at the top level, v3 under Blocks.
-- @treturn[1] table the fields of a loaded schematic (see `blockphys.schematic`),
--   `format = "sponge<version>"`
-- @return[2] nil
-- @treturn[2] string message
function sponge.parse(s, version)
  local w, h, l = cells.dimensions(s)
  if not w then return nil, h end
  local offset, oerr = int_array_offset(s.Offset)
  if not offset then return nil, oerr end
  local pal_c, data, where_p, where_d = s.Palette, s.BlockData, "Palette", "BlockData"
  if version == 3 then
    if not is_compound(s.Blocks) then return nil, "missing or invalid Blocks" end
    pal_c, data, where_p, where_d = s.Blocks.Palette, s.Blocks.Data, "Blocks.Palette", "Blocks.Data"
  end
  local ncells = w * h * l
  -- Check the cheap size bound before walking the palette.
  if type(data) == "string" and ncells > #data then
    return nil, format("%s too short: %d cells need at least %d bytes, got %d",
      where_d, ncells, ncells, #data)
  end
  local palette, perr = palette_array(pal_c, where_p)
  if not palette then return nil, perr end
  local blocks, nb = sponge_cells(data, ncells, palette, where_d)
  if not blocks then return nil, nb end
  return {
    width = w, height = h, length = l, offset = offset, palette = palette,
    blocks = blocks, cell_bytes = nb, format = "sponge" .. version,
    data_version = is_int(s.DataVersion) and s.DataVersion or nil,
  }
end

return sponge
