-- luacheck: std +busted
-- Schematic import gives the same blocks under every interpreter (Lua 5.1 to 5.4 and
-- LuaJIT: `make test-all`): the lobby (Sponge v2 through gzip) and documents of every
-- format, Litematica's packed longs spanning words and NBT longs beyond 2^53 among
-- them, reduced to digests that are constants here. Lua 5.3 and 5.4 decode with
-- string.unpack and 64-bit integers, the others with blockphys.compat's reader and
-- the longs' exact halves (nbt.long_words): a digest that moved on one of them only
-- would name a difference in the numbers. Source: our own.
local C = require "helpers.compat"
local D = require "helpers.nbt_doc"
local H = require "helpers.world"
local nbt = require "blockphys.nbt"
local schematic = require "blockphys.schematic"

local TAG = D.TAG
local entry, comp, int, int_list = D.state_entry, D.comp, D.int, D.int_list

-- 32-bit FNV-1a over the bytes of s (exact on doubles: helpers/compat.lua).
local function fnv(h, s)
  local bxor, mul32, byte = C.bxor, C.mul32, string.byte
  for i = 1, #s do h = mul32(bxor(h, byte(s, i)), 16777619) end
  return h
end

-- A loaded schematic as text: its size, offset, palette and every cell's palette
-- index (through get, the way a paste reads it), then its digest.
local function digest(s)
  local parts = {
    ("%s %d %d %d"):format(s.format, s.width, s.height, s.length),
    ("offset %d %d %d"):format(s.offset[1], s.offset[2], s.offset[3]),
    table.concat(s.palette, "\n"),
  }
  local h = fnv(2166136261, table.concat(parts, "\n"))
  local cells = {}
  for y = 0, s.height - 1 do
    for z = 0, s.length - 1 do
      for x = 0, s.width - 1 do cells[#cells + 1] = ("%d"):format(s:index(x, y, z)) end
    end
    h = fnv(h, table.concat(cells, ","))
    cells = {}
  end
  return ("%08x"):format(h)
end

-- Seeded palette indices in [0, n).
local function values(seed, count, n)
  local rand, out = H.rng(seed), {}
  for i = 1, count do out[i] = rand(n) - 1 end
  return out
end

local function xyz(name, x, y, z) return comp(name, int("x", x), int("y", y), int("z", z)) end

-- A Litematica region of npal states (stone1 .. stone<npal-1>, air first) whose cells
-- are seeded; the bits per cell follow the palette (6 for 40 states: cells straddle
-- the longs' halves and the longs themselves).
local function region(name, pos, size, npal, seed)
  local pal = { entry("minecraft:air") }
  for i = 1, npal - 1 do pal[#pal + 1] = entry("minecraft:stone" .. i) end
  local bits = 2
  while 2 ^ bits < npal do bits = bits + 1 end
  local count = math.abs(size[1] * size[2] * size[3])
  return comp(name, xyz("Position", pos[1], pos[2], pos[3]), xyz("Size", size[1], size[2], size[3]),
    D.list("BlockStatePalette", TAG.compound, pal),
    D.longs("BlockStates", D.pack_bits(values(seed, count, npal), bits)))
end

describe("schematic import digests (the same on every interpreter)", function()
  it("the lobby, examples/data/limbo_spawn.schem (Sponge v2, gzip)", function()
    local s = assert(schematic.load("examples/data/limbo_spawn.schem"))
    assert.equal("98b9b7b6", digest(s))
  end)

  it("a Litematica file of three overlapping regions, 6, 2 and 13 bits per cell", function()
    local doc = D.root("", int("Version", 6), int("MinecraftDataVersion", 3700), comp("Regions",
      region("a", { 0, 0, 0 }, { 13, 7, 11 }, 40, 1),
      region("b", { 5, -3, 4 }, { -9, 5, -6 }, 3, 2),
      region("c", { -4, 2, 9 }, { 6, 3, 5 }, 5000, 3)))
    local s = assert(schematic.load(doc))
    assert.equal("e8bcacbb", digest(s))
  end)

  it("a Sponge v3, an MCEdit (with AddBlocks) and a vanilla structure document", function()
    local function varints(list)
      local out = {}
      for _, v in ipairs(list) do
        repeat
          local b = v % 128
          v = math.floor(v / 128)
          out[#out + 1] = string.char(v > 0 and b + 128 or b)
        until v == 0
      end
      return table.concat(out)
    end
    local states, pal = {}, {}
    for i = 1, 300 do
      states[i] = ("minecraft:stone%d"):format(i)
      pal[i] = int(states[i], i - 1)
    end
    local sponge = D.root("", comp("Schematic", int("Version", 3), int("DataVersion", 3465),
      D.short("Width", 9), D.short("Height", 4), D.short("Length", 7),
      comp("Blocks", D.tag(10, "Palette", table.concat(pal) .. "\0"),
        D.tag(7, "Data", C.pack(">i4", #varints(values(4, 9 * 4 * 7, 300)))
          .. varints(values(4, 9 * 4 * 7, 300))))))
    local ids, metas, add = {}, {}, {}
    local r = H.rng(5)
    for i = 1, 6 * 5 * 4 do
      ids[i] = string.char(({ 1, 5, 17, 35, 53, 54, 64, 85, 101, 126, 139, 171 })[r(12)])
      metas[i] = string.char(r(16) - 1)
    end
    for i = 1, 60 do add[i] = string.char(r(3) == 1 and 17 or 0) end
    local function bytes(name, s) return D.tag(7, name, C.pack(">i4", #s) .. s) end
    local mcedit = D.root("Schematic", D.short("Width", 6), D.short("Height", 5), D.short("Length", 4),
      D.str("Materials", "Alpha"), bytes("Blocks", table.concat(ids)), bytes("Data", table.concat(metas)),
      bytes("AddBlocks", table.concat(add)))
    local spal, items = {}, {}
    for i = 1, 20 do spal[i] = entry("minecraft:oak_stairs", { facing = ({ "north", "south", "east", "west" })[i % 4 + 1],
      half = i % 2 == 0 and "top" or "bottom", shape = "straight", waterlogged = "false" }) end
    local rs = H.rng(6)
    for i = 1, 50 do
      items[i] = D.payload.comp(int_list("pos", { rs(8) - 1, rs(3) - 1, rs(5) - 1 }), int("state", rs(20) - 1))
    end
    local structure = D.root("", int("DataVersion", 3465), int_list("size", { 8, 3, 5 }),
      D.list("palette", TAG.compound, spal), D.list("blocks", TAG.compound, items))
    assert.same({ "2a532500", "810f8f90", "a2734d9e" }, {
      digest(assert(schematic.load(sponge))), digest(assert(schematic.load(mcedit))),
      digest(assert(schematic.load(structure))) })
  end)

  it("NBT longs beyond 2^53: every bit, through long_words", function()
    local longs = {}
    local r = H.rng(7)
    for i = 1, 64 do longs[i] = D.long(r(4294967296) - 1, r(4294967296) - 1) end
    local _, root = assert(nbt.decode(D.root("", D.longs("la", longs))))
    local words = nbt.long_words(root.la)
    local text = {}
    for i = 1, #words do text[i] = ("%08x"):format(words[i]) end
    assert.equal("bc19c003", ("%08x"):format(fnv(2166136261, table.concat(text))))
  end)
end)
