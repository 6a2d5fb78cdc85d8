-- luacheck: std +busted
-- Hostile schematic files and the bounds that hold them (issue 27): skipped entries
-- count against the NBT value budget, Litematica's joined palette is capped as one
-- palette is, paste defines only the states its cells use, and schem:get takes
-- integral floats as World methods do. The attack suite itself is tools/fuzz/
-- (`make fuzz`); these specs pin the messages.
local nbt = require "blockphys.nbt"
local schematic = require "blockphys.schematic"
local litematic = require "blockphys.schematic.litematic"
local D = require "helpers.nbt_doc"
local C = require "helpers.compat"

local TAG = D.TAG
local entry, comp, int = D.state_entry, D.comp, D.int

-- n copies of the payload p, as list items.
local function items(p, n)
  local t = {}
  for i = 1, n do t[i] = p end
  return t
end

-- Runs f with nbt.MAX_VALUES set to n, restoring it whatever f does.
local function with_max_values(n, f)
  local saved = nbt.MAX_VALUES
  nbt.MAX_VALUES = n
  local ok, a, b = pcall(f)
  nbt.MAX_VALUES = saved
  assert(ok, a)
  return a, b
end

-- A vanilla structure document of one stone block, with `extra` tags at its root.
local function structure(extra)
  return D.root("", int("DataVersion", 3465), D.int_list("size", { 1, 1, 1 }),
    D.list("palette", TAG.compound, { entry("minecraft:stone") }),
    D.list("blocks", TAG.compound, { D.payload.comp(D.int_list("pos", { 0, 0, 0 }), int("state", 0)) }),
    extra or "")
end

describe("entries that load skips", function()
  it("count one value per element visited, with the budget's message", function()
    -- the root's entry "Entities" (1) and its 10 elements: 11 values, one past 10
    local doc = D.root("", D.list("Entities", TAG.compound, items("\0", 10)))
    assert.equal("nbt: more than 10 values (nbt.MAX_VALUES) at byte 14", -- the element type
      select(2, with_max_values(10, function() return nbt._decode(doc, nil, { Entities = 9 }) end)))
    -- 9 elements fit, and are left out of the result
    doc = D.root("", D.list("Entities", TAG.compound, items("\0", 9)))
    local _, v = with_max_values(10, function() return nbt._decode(doc, nil, { Entities = 9 }) end)
    assert.same({}, v)
  end)

  it("count each entry of a skipped compound, at its tag type", function()
    local entries = {}
    for i = 1, 20 do entries[i] = D.str("k" .. i, "v") end
    local doc = D.root("", comp("Metadata", C.unpack_table(entries)))
    -- Metadata (1) and 9 of its entries fit in 10; the 10th entry is refused at its
    -- tag type: after the root (3 bytes), Metadata's header (11) and 9 entries of 8
    local _, err = with_max_values(10, function() return nbt._decode(doc, nil, { Metadata = 10 }) end)
    assert.equal(("nbt: more than 10 values (nbt.MAX_VALUES) at byte %d"):format(3 + 11 + 9 * 8), err)
  end)

  it("count through nested lists and lists of strings", function()
    local inner = D.payload.list(TAG.string, items("\0\0", 2)) -- 2 empty strings
    local doc = D.root("", D.list("Entities", TAG.list, { inner, inner, inner }))
    -- 1 + 3 + 2 * 3 = 10 values fit; 9 do not
    assert.same({}, select(2, with_max_values(10, function()
      return nbt._decode(doc, nil, { Entities = 9 }) end)))
    local _, err = with_max_values(9, function() return nbt._decode(doc, nil, { Entities = 9 }) end)
    assert.matches("^nbt: more than 9 values %(nbt.MAX_VALUES%) at byte %d+$", err)
  end)

  it("refuse a flood of empty compounds under entities through load, with the budget's message", function()
    local n = 100
    local doc = structure(D.list("entities", TAG.compound, items("\0", n)))
    assert(schematic.load(doc)) -- within the default budget
    local none, err = with_max_values(50, function() return schematic.load(doc) end)
    assert.is_nil(none)
    assert.matches("^schematic: nbt: more than 50 values %(nbt.MAX_VALUES%) at byte %d+$", err)
  end)
end)

describe("raw NBT given as a string", function()
  it("is decoded as it is, up to max_bytes, and refused past it", function()
    local doc = structure()
    assert(schematic.load(doc, { max_bytes = #doc }))
    assert.same({ nil, "schematic: data exceeds " .. (#doc - 1) .. " bytes" },
      { schematic.load(doc, { max_bytes = #doc - 1 }) })
  end)
end)

describe("Litematica's joined palette", function()
  local function xyz(name, x, y, z) return comp(name, int("x", x), int("y", y), int("z", z)) end
  -- A one-cell region at (x, 0, 0) holding state index v of palette `pal` (entries).
  local function region(name, x, pal, v)
    local bits = 2
    while 2 ^ bits < #pal do bits = bits + 1 end
    return comp(name, xyz("Position", x, 0, 0), xyz("Size", 1, 1, 1),
      D.list("BlockStatePalette", TAG.compound, pal), D.longs("BlockStates", D.pack_bits({ v }, bits)))
  end
  local function litematic_doc(...)
    return D.root("", int("Version", 6), comp("Regions", ...))
  end
  local big = {} -- 65,536 states, air the first
  big[1] = entry("minecraft:air")
  for i = 2, 65536 do big[i] = entry("minecraft:s" .. i) end

  it("is refused as it is decoded, at the entry that passes 65,536 distinct states", function()
    local extra = entry("minecraft:extra")
    local doc = litematic_doc(region("a", 0, big, 1), region("b", 2, { big[2], extra }, 1))
    local at = doc:find(extra, 1, true) - 1
    local s, err = schematic.load(doc)
    assert.is_nil(s)
    assert.equal(("schematic: nbt: joined lists BlockStatePalette of more than 65536 distinct entries "
      .. "at byte %d"):format(at), err)
  end)

  it("counts a state once however many regions list it, and loads 65,536 states", function()
    local doc = litematic_doc(region("a", 0, big, 5), region("b", 2, { big[1], big[7], big[9] }, 2))
    local s = assert(schematic.load(doc))
    assert.equal(65536, #s.palette)
    assert.equal(2, s.cell_bytes)
    assert.same({ "minecraft:s6", "minecraft:air", "minecraft:s9" }, { s:get(0, 0, 0), s:get(1, 0, 0), s:get(2, 0, 0) })
  end)

  it("is refused when the air of the join would be its 65,537th state", function()
    local no_air = {} -- { table.unpack(big, 2) }: 65,535 values, past Lua 5.1's C stack
    for i = 2, #big do no_air[i - 1] = big[i] end
    no_air[65536] = entry("minecraft:last")
    local doc = litematic_doc(region("a", 0, no_air, 0), region("b", 2, { no_air[3] }, 0))
    local s, err = schematic.load(doc)
    assert.is_nil(s)
    assert.equal("schematic: joined BlockStatePalette of 65536 entries and the air of the join (at most 65536)", err)
  end)

  it("is refused by the reader's parse too, for a root decoded without the join's count", function()
    local doc = litematic_doc(region("a", 0, big, 1), region("b", 2, { big[2], entry("minecraft:extra") }, 1))
    local _, root = nbt.decode(doc)
    assert.same({ nil, 'joined BlockStatePalette of more than 65536 entries at region "b" '
      .. "BlockStatePalette entry 1" }, { litematic.parse(root, schematic.MAX_BYTES) })
  end)
end)

describe("paste of a palette its cells do not all use", function()
  -- a stand-in world that counts what it is asked
  local function counting_world()
    local w = { by_name = {}, n = 0, placed = 0 }
    function w:define_block(def)
      self.n = self.n + 1
      self.by_name[def.name] = self.n
      return self.n
    end
    function w:block_id(name) return self.by_name[name] end
    function w:set_block() self.placed = self.placed + 1 end
    return w
  end

  it("defines only the states the cells use and calls block_def for those alone", function()
    local asked = {}
    local shapes = { block_def = function(state)
      asked[#asked + 1] = state
      if state == "minecraft:unused" then error("block_def ran for an unused state") end
      return { name = state }, state ~= "minecraft:frob"
    end }
    local s = { width = 3, height = 1, length = 1, cell_bytes = 1, blocks = "\3\1\3",
                palette = { "minecraft:air", "minecraft:frob", "minecraft:unused", "minecraft:stone" } }
    local w = counting_world()
    assert.same({ placed = 3, guessed = { "minecraft:frob" } }, schematic.paste(w, s, 0, 0, 0, shapes))
    assert.same({ "minecraft:frob", "minecraft:stone" }, asked) -- palette order
    assert.equal(2, w.n)
  end)

  it("leaves out unused states of two-byte cells and of a loaded file", function()
    local pal = {}
    for i = 1, 65536 do pal[i] = "minecraft:s" .. i end
    local s = { width = 2, height = 1, length = 1, cell_bytes = 2, blocks = "\255\255\0\9", palette = pal }
    local w = counting_world()
    assert.equal(2, schematic.paste(w, s, 0, 0, 0).placed)
    assert.same({ 2, 1, 2 }, { w.n, w.by_name["minecraft:s10"], w.by_name["minecraft:s65536"] })
    -- a structure file's palette entry that no block uses is never defined
    local doc = D.root("", int("DataVersion", 3465), D.int_list("size", { 1, 1, 1 }),
      D.list("palette", TAG.compound, { entry("minecraft:unused"), entry("minecraft:stone") }),
      D.list("blocks", TAG.compound, { D.payload.comp(D.int_list("pos", { 0, 0, 0 }), int("state", 1)) }))
    w = counting_world()
    assert.equal(1, schematic.paste(w, assert(schematic.load(doc)), 0, 0, 0).placed)
    assert.same({ 1, nil }, { w.by_name["minecraft:stone"], w.by_name["minecraft:unused"] })
  end)

  it("still reports the first cell whose index is past the palette", function()
    local s = { width = 4, height = 1, length = 1, cell_bytes = 1, blocks = "\1\0\7\5",
                palette = { "minecraft:air", "minecraft:stone" } }
    assert.has_error(function() schematic.paste(counting_world(), s, 0, 0, 0) end,
      "bad argument #2 to 'paste' (schematic cell 2: palette index 7 out of range (palette has 2 entries))")
    s = { width = 3, height = 1, length = 1, cell_bytes = 2, blocks = "\0\1\0\1\1\0",
          palette = { "minecraft:air", "minecraft:stone" } }
    assert.has_error(function() schematic.paste(counting_world(), s, 0, 0, 0) end,
      "bad argument #2 to 'paste' (schematic cell 2: palette index 256 out of range (palette has 2 entries))")
  end)
end)

describe("schem:get and schem:index", function()
  local s = assert(schematic.load("examples/data/limbo_spawn.schem"))

  it("take integral floats as World methods do", function()
    for _, c in ipairs{ { 10, 10, 10 }, { 20, 6, 17 }, { 0, 0, 0 }, { 40, 47, 34 } } do
      local x, y, z = c[1], c[2], c[3]
      assert.equal(s:get(x, y, z), s:get(x + 0.0, y + 0.0, z + 0.0))
      assert.equal(s:index(x, y, z), s:index(x + 0.0, y, z + 0.0))
      assert.equal("integer", C.mtype(s:index(x + 0.0, y + 0.0, z + 0.0)))
    end
    assert.equal(s:get(0, 0, 0), s:get(-0.0, 0, 0))
  end)

  it("still return nil for 10.5, NaN, the infinities, strings and cells outside", function()
    for _, v in ipairs{ 10.5, 0 / 0, math.huge, -math.huge, "10", 48.0, -1.0, 2 ^ 63 } do
      assert.is_nil(s:get(v, 10, 10))
      assert.is_nil(s:get(10, v, 10))
      assert.is_nil(s:index(10, 10, v))
    end
  end)
end)
