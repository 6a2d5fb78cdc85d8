--- Cell strings, palettes and size fields shared by the schematic readers of
-- `blockphys.schematic` (Sponge, MCEdit, structure, Litematica) and by `paste`.
--
-- A loaded schematic keeps its cells in one string, `cell_bytes` bytes per cell
-- (an unsigned big-endian 0-based palette index), in Sponge order: cell
-- `x + z*width + y*width*length`. This module packs decoded indices into such
-- strings a bounded chunk at a time, and turns the `{Name, Properties}` palette
-- entries of the vanilla structure and Litematica formats into state strings.
--
-- Source: our own.
--
-- @module blockphys.schematic.cells
-- @local

local compat = require "blockphys.compat"
local nbt = require "blockphys.nbt"
local parse_state = require("blockphys.state").parse_state

local cells = {}

local char, concat, format, pack = string.char, table.concat, string.format, compat.bytes.pack
local unpack_table = compat.unpack_table
local is_int = compat.is_integer

--- `string.unpack` formats of a cell by its width in bytes.
cells.FORMATS = { ">I1", ">I2", ">I3" }

--- Indices buffered before they are packed: bounds the Lua table a loader keeps.
cells.PACK_CHUNK = 4096

--- Most entries a loaded palette may hold: the block types a world holds, air
-- included, so a larger palette could never be pasted whole. It also bounds the
-- work per entry (a state string parsed and kept), which a small file could
-- otherwise multiply: a 59 MB Sponge palette of 4 million entries took a minute.
cells.MAX_PALETTE = 65536

--- Bytes per cell for a palette of `npal` entries (1, 2 or 3: regions of a
-- Litematica file may together use more states than one palette holds).
function cells.bytes_for(npal)
  if npal <= 256 then return 1 end
  if npal <= 65536 then return 2 end
  return 3
end

--- Packs the first `k` indices of `buf` into a string of `nb` bytes each.
function cells.pack(buf, k, nb)
  local pieces = {}
  for i = 1, k, 200 do -- 200 values per call stay far below Lua's argument limit
    local j = math.min(i + 199, k)
    if nb == 1 then
      pieces[#pieces + 1] = char(unpack_table(buf, i, j))
    else
      pieces[#pieces + 1] = pack(">" .. string.rep("I" .. nb, j - i + 1), unpack_table(buf, i, j))
    end
  end
  return concat(pieces)
end

--- `n` cells of index `v`, `nb` bytes each.
function cells.run(v, n, nb)
  return pack(cells.FORMATS[nb], v):rep(n)
end

--- A cell string built as it goes, for the loaders: `push(v)` adds one cell of
-- index v, `run(v, n)` n cells of index v (consecutive runs of one index merge),
-- `piece(s)` cells already packed `nb` bytes each, and `result()` the whole string.
-- Indices are packed `PACK_CHUNK` at a time and pieces joined 4096 at a time, so no
-- table grows with the number of cells.
function cells.packer(nb)
  local chunks, pieces, np = {}, {}, 0
  local buf, k = {}, 0
  local run_v, run_n = 0, 0
  local function put(s)
    np = np + 1
    pieces[np] = s
    if np == 4096 then
      chunks[#chunks + 1] = concat(pieces, "", 1, np)
      np = 0
    end
  end
  -- at most one of the buffer and the run is pending: each flushes the other first
  local function flush()
    if k > 0 then put(cells.pack(buf, k, nb)); k = 0 end
    if run_n > 0 then put(cells.run(run_v, run_n, nb)); run_n = 0 end
  end
  local p = {}
  function p.push(v)
    if run_n > 0 then flush() end
    k = k + 1
    buf[k] = v
    if k == cells.PACK_CHUNK then flush() end
  end
  function p.run(v, n)
    if k > 0 or (run_n > 0 and run_v ~= v) then flush() end
    run_v, run_n = v, run_n + n
  end
  function p.piece(s) flush(); put(s) end
  function p.result()
    flush()
    chunks[#chunks + 1] = concat(pieces, "", 1, np)
    return concat(chunks)
  end
  return p
end

-- A Properties compound as "k=v,..." in key order (so that one state has one
-- string whatever order the file lists them in), or nil and a message.
local function properties_text(props, where)
  local keys = {}
  for k, v in pairs(props) do
    if type(v) ~= "string" then return nil, format("%s: property %q is not a string", where, k) end
    keys[#keys + 1] = k
  end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do parts[i] = k .. "=" .. props[k] end
  return concat(parts, ",")
end

--- The block state string of a palette entry `{Name = "...", Properties = {...}}`
-- (vanilla structure and Litematica palettes): `"minecraft:oak_stairs[facing=east,half=bottom]"`,
-- properties in key order. Returns nil and a message naming `where` for an entry
-- that is not such a compound or does not make a valid state.
function cells.state_of(entry, where)
  if nbt.kind(entry) ~= "compound" or type(entry.Name) ~= "string" then
    return nil, where .. " is not a compound with a Name string"
  end
  local state = entry.Name
  if entry.Properties ~= nil then
    if nbt.kind(entry.Properties) ~= "compound" then
      return nil, where .. ": Properties is not a compound"
    end
    local text, err = properties_text(entry.Properties, where)
    if not text then return nil, err end
    if text ~= "" then state = state .. "[" .. text .. "]" end
  end
  local ok, err = parse_state(state)
  if not ok then return nil, format("%s: %s", where, err) end
  return state
end

--- A palette list (NBT list of `{Name, Properties}` compounds) as an array of
-- state strings, or nil and a message. At most `max` entries.
function cells.palette_list(list, where, max)
  if nbt.kind(list) ~= "list" then return nil, "missing or invalid " .. where end
  if #list == 0 then return nil, where .. " is empty" end
  if #list > max then return nil, format("%s has %d entries (at most %d)", where, #list, max) end
  local out = {}
  for i = 1, #list do
    local state, err = cells.state_of(list[i], format("%s entry %d", where, i - 1))
    if not state then return nil, err end
    out[i] = state
  end
  return out
end

-- A size stored as an NBT Short: the format treats it as unsigned.
local function dimension(c, key)
  local v = c[key]
  if not is_int(v) then return nil, format("missing or invalid %s", key) end
  if v < 0 and v >= -32768 then v = v + 65536 end
  if v < 0 or v > 65535 then return nil, format("%s %d out of range 0..65535", key, v) end
  return v
end

--- Width, Height and Length of a Sponge or MCEdit document (`c`, the compound
-- holding them): three integers 0..65535, or nil and a message.
function cells.dimensions(c)
  local w, err = dimension(c, "Width")
  if not w then return nil, err end
  local h; h, err = dimension(c, "Height")
  if not h then return nil, err end
  local l; l, err = dimension(c, "Length")
  if not l then return nil, err end
  return w, h, l
end

--- Whether `v` is an integer in [lo, hi].
function cells.int_in(v, lo, hi)
  return is_int(v) and v >= lo and v <= hi
end

return cells
