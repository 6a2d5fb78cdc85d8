--- Builders of NBT documents for the specs (our own; big-endian, Java edition).
-- Each named builder returns the bytes of one named tag; `payload.*` return the
-- bytes of an unnamed payload, for list elements.
local C = require "helpers.compat"

local M = {}

local pack, concat, unpack = C.pack, table.concat, C.unpack_table
local floor = math.floor

M.TAG = { byte = 1, short = 2, int = 3, long = 4, string = 8, list = 9, compound = 10,
  int_array = 11, long_array = 12 }

function M.tag(id, name, payload) return pack(">i1s2", id, name) .. payload end
function M.short(name, v) return M.tag(2, name, pack(">i2", v)) end
function M.int(name, v) return M.tag(3, name, pack(">i4", v)) end
function M.str(name, s) return M.tag(8, name, pack(">s2", s)) end
function M.comp(name, ...) return M.tag(10, name, concat({ ... }) .. "\0") end

local payload = {}
M.payload = payload
function payload.int(v) return pack(">i4", v) end
function payload.comp(...) return concat({ ... }) .. "\0" end
function payload.list(elem, items) return pack(">i1i4", elem, #items) .. concat(items) end

--- A list tag of `elem` type holding the payloads `items`.
function M.list(name, elem, items) return M.tag(9, name, payload.list(elem, items)) end

--- A list of ints.
function M.int_list(name, values)
  local items = {}
  for i, v in ipairs(values) do items[i] = payload.int(v) end
  return M.list(name, 3, items)
end

--- A long of two unsigned 32-bit halves: where Lua has 64-bit integers the integer
-- (two's complement), else the halves as a table `{ hi, lo }` (a double cannot hold
-- every long), which `longs` writes and `assert.same` compares.
function M.long(hi, lo)
  if C.INTEGERS then return (hi >= 2147483648 and hi - 4294967296 or hi) * 4294967296 + lo end
  return { hi, lo }
end

-- The 8 bytes of a long (a number, or M.long's halves).
local function long_bytes(v)
  if type(v) == "table" then return pack(">I4I4", v[1], v[2]) end
  return pack(">i8", v)
end

--- A long array (values are Lua integers, 64-bit two's complement, or `M.long`s).
function M.longs(name, values)
  local parts = { pack(">i4", #values) }
  for i, v in ipairs(values) do parts[i + 1] = long_bytes(v) end
  return M.tag(12, name, concat(parts))
end

--- A `{Name, Properties}` palette entry payload from a state's name and a
-- properties table (may be nil).
function M.state_entry(name, props)
  local parts = { M.str("Name", name) }
  if props then
    local keys = {}
    for k in pairs(props) do keys[#keys + 1] = k end
    table.sort(keys)
    local p = {}
    for i, k in ipairs(keys) do p[i] = M.str(k, props[k]) end
    parts[2] = M.comp("Properties", unpack(p))
  end
  return payload.comp(unpack(parts))
end

--- A document: a root compound named `name` (default "") holding the tags.
function M.root(name, ...) return M.comp(name or "", ...) end

--- Litematica's bit packing: `values` (palette indices) at `bits` bits each, from
-- the low bits of each long upward, running on into the next long.
-- 2^k for k = 0 .. 32, integers where Lua has them.
local POW2 = { [0] = 1 }
for k = 1, 32 do POW2[k] = POW2[k - 1] * 2 end

function M.pack_bits(values, bits)
  -- 32-bit words, the low half of each long first (values < 2^bits, bits <= 32:
  -- their bits never overlap, so adding is or-ing)
  local nlongs = floor((#values * bits + 63) / 64)
  local words = {}
  for j = 0, 2 * nlongs - 1 do words[j] = 0 end
  for i, v in ipairs(values) do
    local bit = (i - 1) * bits
    local j = floor(bit / 32)
    local shift = bit - 32 * j
    words[j] = words[j] + (v % POW2[32 - shift]) * POW2[shift]
    if shift + bits > 32 then words[j + 1] = words[j + 1] + floor(v / POW2[32 - shift]) end
  end
  local longs = {}
  for k = 1, nlongs do longs[k] = M.long(words[2 * k - 1], words[2 * k - 2]) end
  return longs
end

return M
