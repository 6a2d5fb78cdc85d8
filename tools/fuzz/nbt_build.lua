--- Builders of NBT documents for the attack suite (big-endian, Java edition), and
-- gzip through lua-zlib, streamed so that a bomb is never held whole. Each named
-- builder returns the bytes of one named tag; `payload.*` the bytes of an unnamed
-- payload (list elements).
--
-- Source: our own (the NBT format as the Minecraft Wiki's "NBT format" page gives it).

local zlib = require "zlib"

local B = {}

local pack, concat, rep = string.pack, table.concat, string.rep

B.TAG = { byte = 1, short = 2, int = 3, long = 4, float = 5, double = 6, byte_array = 7,
  string = 8, list = 9, compound = 10, int_array = 11, long_array = 12 }

function B.tag(id, name, payload) return pack(">i1s2", id, name) .. payload end
function B.byte(name, v) return B.tag(1, name, pack(">i1", v)) end
-- (a size of 32768..65535 is written as the negative short the formats read as it)
function B.short(name, v) return B.tag(2, name, pack(">i2", v >= 32768 and v - 65536 or v)) end
function B.int(name, v) return B.tag(3, name, pack(">i4", v)) end
function B.str(name, s) return B.tag(8, name, pack(">s2", s)) end
function B.bytes(name, s) return B.tag(7, name, pack(">i4", #s) .. s) end
function B.comp(name, ...) return B.tag(10, name, concat({ ... }) .. "\0") end
function B.root(name, ...) return B.comp(name or "", ...) end

--- A list tag: element type, count, and the elements' payloads already joined (so
-- that a flood of n one-byte elements is one string.rep).
function B.list_raw(name, elem, n, body) return B.tag(9, name, pack(">i1i4", elem, n) .. body) end
function B.list(name, elem, items) return B.list_raw(name, elem, #items, concat(items)) end

function B.ints(name, list)
  local parts = {}
  for i, v in ipairs(list) do parts[i] = pack(">i4", v) end
  return B.tag(11, name, pack(">i4", #list) .. concat(parts))
end

function B.int_list(name, list)
  local parts = {}
  for i, v in ipairs(list) do parts[i] = pack(">i4", v) end
  return B.list_raw(name, 3, #list, concat(parts))
end

--- A long array of `n` longs whose bytes are `body` (8 * n bytes).
function B.longs_raw(name, n, body) return B.tag(12, name, pack(">i4", n) .. body) end

local payload = {}
B.payload = payload
function payload.comp(...) return concat({ ... }) .. "\0" end
function payload.list(elem, items) return pack(">i1i4", elem, #items) .. concat(items) end

--- A `{Name = name}` palette entry payload, with `props` (a table) as Properties.
function B.state_entry(name, props)
  if not props then return payload.comp(B.str("Name", name)) end
  local keys, parts = {}, {}
  for k in pairs(props) do keys[#keys + 1] = k end
  table.sort(keys)
  for i, k in ipairs(keys) do parts[i] = B.str(k, props[k]) end
  return payload.comp(B.str("Name", name), B.comp("Properties", table.unpack(parts)))
end

--- Sponge v2: Width, Height, Length, Palette (states in index order) and BlockData.
function B.sponge2(w, h, l, states, data, extra)
  local pal = {}
  for i, s in ipairs(states) do pal[i] = B.int(s, i - 1) end
  return B.comp("Schematic", B.int("Version", 2), B.int("DataVersion", 3465),
    B.short("Width", w), B.short("Height", h), B.short("Length", l),
    B.comp("Palette", table.unpack(pal)), B.bytes("BlockData", data), extra or "")
end

--- Sponge v3: the same under Schematic.Blocks.
function B.sponge3(w, h, l, states, data, extra)
  local pal = {}
  for i, s in ipairs(states) do pal[i] = B.int(s, i - 1) end
  return B.root("", B.comp("Schematic", B.int("Version", 3), B.short("Width", w),
    B.short("Height", h), B.short("Length", l),
    B.comp("Blocks", B.comp("Palette", table.unpack(pal)), B.bytes("Data", data)), extra or ""))
end

--- MCEdit: Blocks (ids) and Data (metadata) byte strings, one byte per cell.
function B.mcedit(w, h, l, blocks, data, extra)
  return B.comp("Schematic", B.short("Width", w), B.short("Height", h), B.short("Length", l),
    B.str("Materials", "Alpha"), B.bytes("Blocks", blocks), B.bytes("Data", data), extra or "")
end

--- A structure file: size, palette entries (payloads) and the blocks' list body
-- (n compounds already joined).
function B.structure(size, palette, n, blocks_body, extra)
  return B.root("", B.int("DataVersion", 3465), B.int_list("size", size),
    B.list("palette", 10, palette), B.list_raw("blocks", 10, n, blocks_body), extra or "")
end

--- One structure block compound payload.
function B.structure_block(x, y, z, state)
  return payload.comp(B.int_list("pos", { x, y, z }), B.int("state", state))
end

local function xyz(name, x, y, z) return B.comp(name, B.int("x", x), B.int("y", y), B.int("z", z)) end

--- A Litematica region compound: position, size, palette entries (payloads) and
-- `n` longs of BlockStates given as their bytes.
function B.region(name, pos, size, palette, n, longs_body)
  return B.comp(name, xyz("Position", pos[1], pos[2], pos[3]), xyz("Size", size[1], size[2], size[3]),
    B.list("BlockStatePalette", 10, palette), B.longs_raw("BlockStates", n, longs_body))
end

--- A Litematica document of the region compounds.
function B.litematic(regions, extra)
  return B.root("", B.int("Version", 6), B.int("MinecraftDataVersion", 3700),
    B.comp("Regions", table.unpack(regions)), extra or "")
end

--- The bits per cell of a Litematica palette of n entries.
function B.bits_for(n)
  local bits = 2
  while 2 ^ bits < n do bits = bits + 1 end
  return bits
end

--- gzip of `s`, or of the pieces `more()` gives until nil after it (a bomb streamed).
function B.gzip(s, more)
  local stream = zlib.deflate(6, 31)
  local out = { (stream(s)) }
  if more then
    for piece in more do out[#out + 1] = (stream(piece)) end
  end
  out[#out + 1] = (stream("", "finish"))
  return concat(out)
end

--- A string of n zero bytes, built without a table per byte.
function B.zeros(n) return rep("\0", n) end

return B
