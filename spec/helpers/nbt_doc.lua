--- Builders of NBT documents for the specs (our own; big-endian, Java edition).
-- Each named builder returns the bytes of one named tag; `payload.*` return the
-- bytes of an unnamed payload, for list elements.
local M = {}

local pack, concat = string.pack, table.concat

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

--- A long array (values are Lua integers, 64-bit two's complement).
function M.longs(name, values)
  return M.tag(12, name, pack(">i4", #values) .. pack(">" .. string.rep("i8", #values),
    table.unpack(values)))
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
    parts[2] = M.comp("Properties", table.unpack(p))
  end
  return payload.comp(table.unpack(parts))
end

--- A document: a root compound named `name` (default "") holding the tags.
function M.root(name, ...) return M.comp(name or "", ...) end

--- Litematica's bit packing: `values` (palette indices) at `bits` bits each, from
-- the low bits of each long upward, running on into the next long.
function M.pack_bits(values, bits)
  local longs = {}
  for i = 1, (#values * bits + 63) // 64 do longs[i] = 0 end
  for i, v in ipairs(values) do
    local bit = (i - 1) * bits
    local word, shift = (bit >> 6) + 1, bit & 63
    longs[word] = longs[word] | (v << shift)
    if shift + bits > 64 then longs[word + 1] = longs[word + 1] | (v >> (64 - shift)) end
  end
  return longs
end

return M
