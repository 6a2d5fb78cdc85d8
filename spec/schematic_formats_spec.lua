-- Vanilla structure files (.nbt) and Litematica schematics (.litematic) through
-- blockphys.schematic.load: layout, palettes, gaps and overlaps, and bad input.
local bp = require "blockphys"
local C = require "helpers.compat"
local schematic = require "blockphys.schematic"
local D = require "helpers.nbt_doc"

local TAG = D.TAG
local entry, comp, int, int_list = D.state_entry, D.comp, D.int, D.int_list

-- Every cell's state, as "x,y,z=state" for the non-air ones.
local function cells_of(s)
  local out = {}
  for y = 0, s.height - 1 do
    for z = 0, s.length - 1 do
      for x = 0, s.width - 1 do
        local state = s:get(x, y, z)
        if state ~= "minecraft:air" then out[#out + 1] = ("%d,%d,%d=%s"):format(x, y, z, state) end
      end
    end
  end
  return out
end

local function fails(doc, expected)
  local s, err = schematic.load(doc)
  assert.is_nil(s)
  assert.equal("schematic: " .. expected, err)
end

describe("vanilla structure files", function()
  -- A structure: size, palette entries, blocks {pos, state}.
  local function structure(size, pal, blocks, extra)
    local items = {}
    for i, b in ipairs(blocks) do
      items[i] = D.payload.comp(int_list("pos", b[1]), int("state", b[2]))
    end
    return D.root("", int("DataVersion", 3465), int_list("size", size),
      D.list("palette", TAG.compound, pal), D.list("blocks", TAG.compound, items), extra or "")
  end

  it("refuses a palette of more than 65,536 entries (the block types a world holds)", function()
    local pal = {}
    for i = 1, 65537 do pal[i] = entry("minecraft:test_" .. i) end
    fails(structure({ 1, 1, 1 }, pal, { { { 0, 0, 0 }, 65536 } }),
      "nbt: list palette of 65537 entries (at most 65536) at byte 55")
    pal[65537] = nil
    local s = assert(schematic.load(structure({ 1, 1, 1 }, pal, { { { 0, 0, 0 }, 65535 } })))
    assert.equal("minecraft:test_65536", s:get(0, 0, 0))
    -- each list of `palettes` alike, the second too (only the first is used)
    local small = D.payload.list(TAG.compound, { entry("minecraft:stone") })
    for _, lists in ipairs{ { small, D.payload.list(TAG.compound, pal) }, { small, small } } do
      local doc = D.root("", int("DataVersion", 3465), int_list("size", { 1, 1, 1 }),
        D.list("palettes", TAG.list, lists), D.list("blocks", TAG.compound, {}))
      assert(schematic.load(doc))
    end
    pal[65537] = entry("minecraft:test_65537")
    local doc = D.root("", int("DataVersion", 3465), int_list("size", { 1, 1, 1 }),
      D.list("palettes", TAG.list, { small, D.payload.list(TAG.compound, pal) }),
      D.list("blocks", TAG.compound, {}))
    local none, err = schematic.load(doc)
    assert.is_nil(none)
    assert.matches("^schematic: nbt: list palettes%[1%] of 65537 entries %(at most 65536%) at byte %d+$", err)
  end)

  it("places the listed blocks; cells it does not list are air", function()
    local doc = structure({ 3, 2, 2 }, {
      entry("minecraft:stone"),
      entry("minecraft:oak_stairs", { half = "bottom", facing = "east", shape = "straight" }),
    }, { { { 0, 0, 0 }, 0 }, { { 2, 1, 1 }, 1 }, { { 1, 0, 1 }, 0 } })
    local s = assert(schematic.load(doc))
    assert.equal("structure", s.format)
    assert.same({ 3, 2, 2 }, { s.width, s.height, s.length })
    assert.equal(3465, s.data_version)
    -- properties in key order; air appended for the unlisted cells
    assert.same({ "minecraft:stone", "minecraft:oak_stairs[facing=east,half=bottom,shape=straight]",
      "minecraft:air" }, s.palette)
    assert.same({ "0,0,0=minecraft:stone", "1,0,1=minecraft:stone",
      "2,1,1=minecraft:oak_stairs[facing=east,half=bottom,shape=straight]" }, cells_of(s))
    assert.equal(3, s.count_nonair)
    -- and pastes like any schematic, the unlisted cells leaving the world alone
    local w = bp.World()
    w:define_block{ name = "minecraft:glass" }
    w:set_block(10, 0, 11, "minecraft:glass") -- under unlisted cell (0, 0, 1)
    assert.equal(3, w:paste(s, 10, 0, 10).placed)
    assert.equal(w:block_id("minecraft:glass"), w:get_block(10, 0, 11))
    assert.equal(w:block_id("minecraft:stone"), w:get_block(11, 0, 11))
  end)

  it("uses the first of several palettes, and the file's own air", function()
    local doc = D.root("", int_list("size", { 2, 1, 1 }),
      D.list("palettes", TAG.list, {
        D.payload.list(TAG.compound, { entry("minecraft:air"), entry("minecraft:dirt") }),
        D.payload.list(TAG.compound, { entry("minecraft:air"), entry("minecraft:sand") }),
      }),
      D.list("blocks", TAG.compound, { D.payload.comp(int_list("pos", { 1, 0, 0 }), int("state", 1)) }))
    local s = assert(schematic.load(doc))
    assert.same({ "minecraft:air", "minecraft:dirt" }, s.palette)
    assert.same({ "1,0,0=minecraft:dirt" }, cells_of(s))
    assert.equal(1, s.cell_bytes)
    -- with both, `palettes` wins (StructureTemplate.load reads it first)
    doc = D.root("", int_list("size", { 1, 1, 1 }),
      D.list("palette", TAG.compound, { entry("minecraft:stone") }),
      D.list("palettes", TAG.list, { D.payload.list(TAG.compound, { entry("minecraft:dirt") }) }),
      D.list("blocks", TAG.compound, { D.payload.comp(int_list("pos", { 0, 0, 0 }), int("state", 0)) }))
    assert.same({ "0,0,0=minecraft:dirt" }, cells_of(assert(schematic.load(doc))))
    -- an empty `palettes` leaves `palette` (our own choice)
    doc = D.root("", int_list("size", { 1, 1, 1 }),
      D.list("palette", TAG.compound, { entry("minecraft:stone") }), D.list("palettes", TAG.list, {}),
      D.list("blocks", TAG.compound, { D.payload.comp(int_list("pos", { 0, 0, 0 }), int("state", 0)) }))
    assert.same({ "0,0,0=minecraft:stone" }, cells_of(assert(schematic.load(doc))))
  end)

  -- The game never writes a position twice (it saves a world); ours takes the later
  -- entry (the game's own placement would sort the entries by shape first).
  it("takes the later entry for a position listed twice", function()
    local s = assert(schematic.load(structure({ 1, 1, 1 }, { entry("minecraft:stone"), entry("minecraft:dirt") },
      { { { 0, 0, 0 }, 0 }, { { 0, 0, 0 }, 1 } })))
    assert.same({ "0,0,0=minecraft:dirt" }, cells_of(s))
    assert.same({ "minecraft:stone", "minecraft:dirt" }, s.palette) -- every cell listed: no air
  end)

  -- docs/schematics.md "Formats": a position listed twice takes its later entry and is
  -- still one cell; the cells after it keep their places.
  it("keeps the cells after a position listed twice in their places", function()
    local pal = { entry("minecraft:stone"), entry("minecraft:dirt"), entry("minecraft:sand") }
    local s = assert(schematic.load(structure({ 2, 1, 1 }, pal,
      { { { 0, 0, 0 }, 0 }, { { 0, 0, 0 }, 1 }, { { 1, 0, 0 }, 2 } })))
    assert.same({ "0,0,0=minecraft:dirt", "1,0,0=minecraft:sand" }, cells_of(s))
    assert.equal(2, #s.blocks) -- one byte per cell, two cells
  end)

  -- Entries no loader reads (`entities`) are skipped unbuilt but checked as strictly as the
  -- rest: nesting deeper than nbt.MAX_DEPTH (512) in them is refused, through lists and
  -- compounds.
  it("refuses unread entities nested deeper than 512", function()
    local pal = { entry("minecraft:stone") }
    local l = D.payload.list(0, {})
    for _ = 1, 600 do l = D.payload.list(TAG.list, { l }) end
    local s, err = schematic.load(structure({ 1, 1, 1 }, pal, { { { 0, 0, 0 }, 0 } }, D.tag(TAG.list, "entities", l)))
    assert.is_nil(s)
    assert.matches("^schematic: nbt: nesting deeper than 512 at byte %d+$", err)
    local c = "\0"
    for _ = 1, 600 do c = D.tag(TAG.compound, "n", c) .. "\0" end
    s, err = schematic.load(structure({ 1, 1, 1 }, pal, { { { 0, 0, 0 }, 0 } },
      D.list("entities", TAG.compound, { c })))
    assert.is_nil(s)
    assert.matches("^schematic: nbt: nesting deeper than 512 at byte %d+$", err)
    -- nesting within the limit loads
    l = D.payload.list(0, {})
    for _ = 1, 100 do l = D.payload.list(TAG.list, { l }) end
    assert(schematic.load(structure({ 1, 1, 1 }, pal, { { { 0, 0, 0 }, 0 } }, D.tag(TAG.list, "entities", l))))
  end)

  -- `max_bytes` bounds the cell string, cells times bytes per cell: two bytes past 256
  -- palette entries.
  it("bounds a structure's cell string by two bytes a cell past 256 states", function()
    local pal = {}
    for i = 1, 257 do pal[i] = entry("minecraft:test_" .. i) end -- and air: 258 states
    local doc = structure({ 100, 100, 1 }, pal, { { { 0, 0, 0 }, 256 } })
    assert.is_true(#doc < 15000)
    local s, err = schematic.load(doc, { max_bytes = 15000 })
    assert.is_nil(s)
    assert.equal("schematic: structure of 100x100x1 cells would take 20000 bytes (max_bytes 15000)", err)
    s = assert(schematic.load(doc, { max_bytes = 20000 }))
    assert.equal("minecraft:test_257", s:get(0, 0, 0))
  end)

  -- StructureTemplate.load reads `palettes` only when it is a list (tag.getList gives
  -- nothing for another tag type) and then falls back to `palette`.
  it("reads `palette` when `palettes` is not a list", function()
    local doc = structure({ 1, 1, 1 }, { entry("minecraft:stone") }, { { { 0, 0, 0 }, 0 } },
      D.longs("palettes", { 1, 2 }))
    local s = assert(schematic.load(doc))
    assert.same({ "0,0,0=minecraft:stone" }, cells_of(s))
  end)

  -- The cap of 65,536 counts a palette's entries, not the tags inside one entry (the game
  -- reads Name and Properties and ignores the rest).
  it("caps the palette's entries, not the tags of an entry", function()
    local tags = { D.str("Name", "minecraft:stone") }
    for i = 1, 65537 do tags[#tags + 1] = int("t" .. i, 0) end
    local s = assert(schematic.load(structure({ 1, 1, 1 }, { table.concat(tags) .. "\0" }, -- payload.comp
      { { { 0, 0, 0 }, 0 } })))
    assert.equal("minecraft:stone", s:get(0, 0, 0))
  end)

  it("refuses blocks outside the size, unknown states and huge sizes", function()
    local pal = { entry("minecraft:stone") }
    fails(structure({ 2, 2, 2 }, pal, { { { 2, 0, 0 }, 0 } }), "blocks entry 0: pos outside the size 2x2x2")
    fails(structure({ 2, 2, 2 }, pal, { { { 0, 0, 0 }, 1 } }),
      "blocks entry 0: state must be an index into the palette (0..0)")
    fails(structure({ 2, 2 }, pal, {}), "size must be a list of 3 ints")
    fails(structure({ 2, -1, 2 }, pal, {}), "size[1] must be an integer in 0..65535")
    -- an empty palette, as the game writes for a structure of structure voids: all air
    local empty = assert(schematic.load(structure({ 2, 2, 2 }, {}, {})))
    assert.same({ "minecraft:air" }, empty.palette)
    assert.equal(string.rep("\0", 8), empty.blocks)
    fails(structure({ 2, 2, 2 }, {}, { { { 0, 0, 0 }, 0 } }),
      "blocks entry 0: a block, but the palette is empty")
    fails(structure({ 2, 2, 2 }, { D.payload.comp(int("Name", 1)) }, {}),
      "palette entry 0 is not a compound with a Name string")
    fails(structure({ 2, 2, 2 }, { D.payload.comp(D.str("Name", "minecraft:stone"), int("Properties", 1)) }, {}),
      "palette entry 0: Properties is not a compound")
    fails(structure({ 2, 2, 2 }, { D.payload.comp(D.str("Name", "minecraft:stone"),
      comp("Properties", int("facing", 1))) }, {}), 'palette entry 0: property "facing" is not a string')
    local function with_blocks(items)
      return D.root("", int_list("size", { 2, 2, 2 }), D.list("palette", TAG.compound, pal),
        D.list("blocks", TAG.int, items))
    end
    fails(with_blocks({ D.payload.int(0) }), "blocks entry 0 is not a compound")
    fails(D.root("", int_list("size", { 2, 2, 2 }), D.list("palette", TAG.compound, pal),
      D.list("blocks", TAG.compound, { D.payload.comp(int_list("pos", { 0, 0 }), int("state", 0)) })),
      "blocks entry 0: pos must be a list of 3 ints")
    -- the file lists few cells, so the size alone is bounded by max_bytes
    local s, err = schematic.load(structure({ 65535, 65535, 2 }, pal, {}))
    assert.is_nil(s)
    assert.equal("schematic: structure of 65535x65535x2 cells would take 8589672450 bytes "
      .. "(max_bytes 268435456)", err)
  end)
end)

describe("Litematica schematics", function()
  local function xyz(name, x, y, z) return comp(name, int("x", x), int("y", y), int("z", z)) end

  -- A region: position, signed size, palette entries, cell values (x, then z, then y).
  local function region(name, pos, size, pal, values, bits)
    local n = 0
    for _ in ipairs(pal) do n = n + 1 end
    local need = 0 -- ceil(log2(n)) (Lua 5.1's math.log takes no base)
    while 2 ^ need < n do need = need + 1 end
    bits = bits or math.max(2, need)
    return comp(name, xyz("Position", pos[1], pos[2], pos[3]), xyz("Size", size[1], size[2], size[3]),
      D.list("BlockStatePalette", TAG.compound, pal), D.longs("BlockStates", D.pack_bits(values, bits)))
  end

  local function litematic(...)
    return D.root("", int("Version", 6), int("MinecraftDataVersion", 3700),
      comp("Regions", ...))
  end

  it("packs cells from the low bits of each long and runs on into the next", function()
    -- Hand-packed, two bits per cell: values 1, 2, 3, 0 are 0b00111001 = 57.
    assert.same({ D.long(0, 57) }, D.pack_bits({ 1, 2, 3, 0 }, 2)) -- 57
    -- Five bits per cell: the 13th value (bit 60) has its low 4 bits at the top of
    -- the first long and its high bit at the bottom of the second.
    local v = {}
    for i = 1, 12 do v[i] = 0 end
    v[13] = 0x1F
    assert.same({ D.long(0xF0000000, 0), D.long(0, 1) }, D.pack_bits(v, 5)) -- 0xF << 60, 1
  end)

  it("reads one region: palette, bits and cell order", function()
    local pal = { entry("minecraft:air"), entry("minecraft:stone"),
      entry("minecraft:oak_slab", { type = "top", waterlogged = "false" }) }
    -- a 3x2x2 region, cells x fastest, then z, then y
    local values = { 1, 0, 2, 0, 0, 1, 2, 2, 2, 0, 1, 0 }
    local s = assert(schematic.load(litematic(region("main", { 0, 0, 0 }, { 3, 2, 2 }, pal, values))))
    assert.equal("litematic", s.format)
    assert.equal(3700, s.data_version)
    assert.same({ 3, 2, 2 }, { s.width, s.height, s.length })
    assert.same({ 0, 0, 0 }, s.offset)
    local slab = "minecraft:oak_slab[type=top,waterlogged=false]"
    assert.same({ "0,0,0=minecraft:stone", "2,0,0=" .. slab, "2,0,1=minecraft:stone",
      "0,1,0=" .. slab, "1,1,0=" .. slab, "2,1,0=" .. slab, "1,1,1=minecraft:stone" }, cells_of(s))
  end)

  -- load leaves block entities, entities and ticks undecoded by name; a region may
  -- be named like one of them, and must still load.
  it("loads regions named like the entries load skips, and skips those inside them", function()
    local pal = { entry("minecraft:air"), entry("minecraft:stone") }
    for _, name in ipairs{ "Entities", "entities", "nbt", "TileEntities" } do
      local s = assert(schematic.load(litematic(region(name, { 0, 0, 0 }, { 2, 1, 1 }, pal, { 1, 1 }),
        region("zz", { 5, 0, 0 }, { 1, 1, 1 }, pal, { 1 }))))
      assert.same({ 6, 1, 1 }, { s.width, s.height, s.length }, name)
      assert.equal("minecraft:stone", s:get(0, 0, 0))
    end
    -- a region's own Entities list (here a list of ints) is not decoded at all
    local doc = litematic(comp("main", xyz("Position", 0, 0, 0), xyz("Size", 1, 1, 1),
      D.list("BlockStatePalette", TAG.compound, pal), D.longs("BlockStates", D.pack_bits({ 1 }, 2)),
      D.int_list("Entities", { 1, 2, 3 })))
    assert.equal("minecraft:stone", assert(schematic.load(doc)):get(0, 0, 0))
  end)

  it("spans longs with 5 bits per cell (17 states)", function()
    local pal = { entry("minecraft:air") }
    for i = 1, 16 do pal[#pal + 1] = entry("minecraft:stone" .. i) end
    local values = {}
    for i = 1, 40 do values[i] = i % 17 end -- cell 12 (bit 60) spans two longs
    local s = assert(schematic.load(litematic(region("r", { 0, 0, 0 }, { 40, 1, 1 }, pal, values))))
    for x = 0, 39 do
      local v = (x + 1) % 17
      assert.equal(v == 0 and "minecraft:air" or "minecraft:stone" .. v, s:get(x, 0, 0))
    end
  end)

  it("places a negative size toward lower coordinates and joins regions over their box", function()
    local pal = { entry("minecraft:air"), entry("minecraft:stone") }
    local pal2 = { entry("minecraft:air"), entry("minecraft:dirt") }
    -- region a: position (1, 0, 0), size (-2, 1, 1): cells x = 0 and 1
    -- region b: position (3, 0, 1), size (1, 1, 1); the box is x 0..3, z 0..1
    local s = assert(schematic.load(litematic(
      region("b", { 3, 0, 1 }, { 1, 1, 1 }, pal2, { 1 }),
      region("a", { 1, 0, 0 }, { -2, 1, 1 }, pal, { 1, 0 }))))
    assert.same({ 4, 1, 2 }, { s.width, s.height, s.length })
    assert.same({ 0, 0, 0 }, s.offset)
    assert.same({ "0,0,0=minecraft:stone", "3,0,1=minecraft:dirt" }, cells_of(s))
    assert.same({ "minecraft:air", "minecraft:stone", "minecraft:dirt" }, s.palette)
  end)

  -- LitematicaBitArray.getAt: a value that ends exactly at bit 64 lies in
  -- one long; only one that crosses the boundary reads the next long.
  it("reads a value that ends at the top bit of a long from that long alone", function()
    local pal = { entry("minecraft:air"), entry("minecraft:stone"), entry("minecraft:dirt") }
    local values = {}
    for i = 1, 64 do values[i] = 0 end
    values[32], values[33] = 1, 2 -- cells 31 (bits 62..63 of the first long) and 32
    local s = assert(schematic.load(litematic(region("r", { 0, 0, 0 }, { 64, 1, 1 }, pal, values))))
    assert.equal("minecraft:stone", s:get(31, 0, 0))
    assert.equal("minecraft:dirt", s:get(32, 0, 0))
    -- one long of 32 cells: the last ends at bit 64 and there is no next long
    local one = {}
    for i = 1, 32 do one[i] = 0 end
    one[32] = 2
    s = assert(schematic.load(litematic(region("r", { 0, 0, 0 }, { 32, 1, 1 }, pal, one))))
    assert.equal("minecraft:dirt", s:get(31, 0, 0))
  end)

  -- docs/schematics.md: cells no region covers are air, also where overlapping regions hold as many
  -- cells as the box.
  it("fills the gap of two overlapping regions that cover the box's cell count", function()
    local pal = { entry("minecraft:stone") }
    -- 2x1x1 and 1x1x2 from the origin: 4 cells listed, box 2x1x2, (1, 0, 1) uncovered
    local s = assert(schematic.load(litematic(region("a", { 0, 0, 0 }, { 2, 1, 1 }, pal, { 0, 0 }),
      region("b", { 0, 0, 0 }, { 1, 1, 2 }, pal, { 0, 0 }))))
    assert.same({ 2, 1, 2 }, { s.width, s.height, s.length })
    assert.same({ "0,0,0=minecraft:stone", "1,0,0=minecraft:stone", "0,0,1=minecraft:stone" }, cells_of(s))
    assert.equal("minecraft:air", s:get(1, 0, 1))
  end)

  -- MAX_REGIONS regions load.
  it("loads a document of exactly MAX_REGIONS regions", function()
    local pal = { entry("minecraft:stone") }
    local regions = {}
    for i = 1, 64 do -- litematic.MAX_REGIONS
      regions[i] = region(("r%02d"):format(i), { i - 1, 0, 0 }, { 1, 1, 1 }, pal, { 0 })
    end
    local s = assert(schematic.load(litematic(C.unpack_table(regions))))
    assert.same({ 64, 1, 1 }, { s.width, s.height, s.length })
    assert.equal("minecraft:stone", s:get(63, 0, 0))
  end)

  -- docs/schematics.md: where regions overlap the one whose name sorts last wins, in every run,
  -- whatever the order of the Regions compound; the joined palette follows the sorted
  -- names.
  it("orders many overlapping regions by name, not by table order", function()
    local parts, states = {}, {}
    for i = 1, 20 do
      local name = ("r%02d"):format(i)
      states[i] = "minecraft:test_" .. name
      parts[21 - i] = region(name, { 0, 0, 0 }, { 1, 1, 1 }, { entry(states[i]) }, { 0 })
    end
    -- written in reverse order: r20 first in the file
    local s = assert(schematic.load(litematic(C.unpack_table(parts))))
    assert.equal("minecraft:test_r20", s:get(0, 0, 0))
    states[21] = "minecraft:air" -- several regions: air for the join
    assert.same(states, s.palette)
  end)

  -- A negative Size reaching below the int32 range on Y is refused as on X.
  it("refuses regions reaching below the int32 range on Y and Z", function()
    local pal = { entry("minecraft:air"), entry("minecraft:stone") }
    fails(litematic(region("r", { 0, -2 ^ 31, 0 }, { 1, -2, 1 }, pal, { 1, 1 })),
      "regions reach below the int32 range")
    fails(litematic(region("r", { 0, 0, -2 ^ 31 }, { 1, 1, -2 }, pal, { 1, 1 })),
      "regions reach below the int32 range")
  end)

  -- A document without MinecraftDataVersion has no data version (nil, not 0).
  it("gives no data_version when the document has no MinecraftDataVersion", function()
    local pal = { entry("minecraft:stone") }
    local s = assert(schematic.load(D.root("", int("Version", 6),
      comp("Regions", region("r", { 0, 0, 0 }, { 1, 1, 1 }, pal, { 0 })))))
    assert.is_nil(s.data_version)
    local s2 = assert(schematic.load(litematic(region("r", { 0, 0, 0 }, { 1, 1, 1 }, pal, { 0 }))))
    assert.equal(3700, s2.data_version)
  end)

  -- As the structure palette, a BlockStatePalette of more than 65,536 entries is refused as
  -- it is decoded.
  it("refuses a BlockStatePalette of 65,537 entries as it decodes it", function()
    local pal = {}
    for i = 1, 65537 do pal[i] = entry("minecraft:test_" .. i) end
    local s, err = schematic.load(litematic(region("r", { 0, 0, 0 }, { 1, 1, 1 }, pal, { 0 })))
    assert.is_nil(s)
    assert.matches("^schematic: nbt: list BlockStatePalette of 65537 entries %(at most 65536%) at byte %d+$", err)
  end)

  it("lets the region whose name sorts last win where regions overlap", function()
    local stone = { entry("minecraft:air"), entry("minecraft:stone") }
    local dirt = { entry("minecraft:air"), entry("minecraft:dirt") }
    local s = assert(schematic.load(litematic(
      region("z", { 1, 0, 0 }, { 2, 1, 1 }, dirt, { 1, 0 }),
      region("a", { 0, 0, 0 }, { 3, 1, 1 }, stone, { 1, 1, 1 }))))
    assert.equal(3, s.width)
    assert.same({ "0,0,0=minecraft:stone", "1,0,0=minecraft:dirt" }, cells_of(s)) -- z's air wins at x 2
  end)

  it("joins many regions row by row: far-apart regions cost their own rows, not the box's", function()
    local pal = { entry("minecraft:air"), entry("minecraft:stone") }
    -- two single cells 65534 apart on Y and 39 on Z: a box of 2.6 million cells,
    -- almost all air, built from air runs
    local s = assert(schematic.load(litematic(
      region("a", { 0, 0, 0 }, { 1, 1, 1 }, pal, { 1 }),
      region("b", { 0, 65534, 39 }, { 1, 1, 1 }, pal, { 1 }))))
    assert.same({ 1, 65535, 40 }, { s.width, s.height, s.length })
    assert.equal(2, s.count_nonair)
    assert.equal("minecraft:stone", s:get(0, 65534, 39))
    assert.equal("minecraft:air", s:get(0, 65534, 38))
    -- regions side by side and stacked, overlapping in part: each cell from the
    -- last region (by name) covering it
    local regions, want = {}, {}
    for i = 0, 5 do
      local name = ("r%d"):format(i)
      local dirt = { entry("minecraft:air"), entry("minecraft:dirt" .. i) }
      regions[#regions + 1] = region(name, { i * 2, i % 2, 0 }, { 3, 1, 2 }, dirt, { 1, 1, 1, 1, 1, 1 })
      for x = i * 2, i * 2 + 2 do
        for z = 0, 1 do want[("%d,%d,%d"):format(x, i % 2, z)] = "minecraft:dirt" .. i end
      end
    end
    s = assert(schematic.load(litematic(C.unpack_table(regions))))
    assert.same({ 13, 2, 2 }, { s.width, s.height, s.length })
    local got = {}
    for _, c in ipairs(cells_of(s)) do
      local at, state = c:match("^(.-)=(.*)$")
      got[at] = state
    end
    assert.same(want, got)
  end)

  it("refuses bad regions", function()
    local pal = { entry("minecraft:air"), entry("minecraft:stone") }
    fails(D.root("", comp("Regions")), "Regions is empty")
    -- An array shorter than the cells need is refused (Litematica fails reading it);
    -- a longer one loads and its extra longs are not read, as in Litematica.
    fails(litematic(comp("r", xyz("Position", 0, 0, 0), xyz("Size", 2, 1, 1),
      D.list("BlockStatePalette", TAG.compound, pal), D.longs("BlockStates", {}))),
      'region "r": BlockStates has 0 longs, 2 cells of 2 bits need 1')
    local s = assert(schematic.load(litematic(comp("r", xyz("Position", 0, 0, 0), xyz("Size", 2, 1, 1),
      D.list("BlockStatePalette", TAG.compound, pal), D.longs("BlockStates", { 4, 7 })))))
    assert.same({ "minecraft:air", "minecraft:stone" }, { s:get(0, 0, 0), s:get(1, 0, 0) })
    -- 16 states take 4 bits, whatever length the array has: 5 longs are read at 4 bits
    local pal16 = {}
    for i = 1, 16 do pal16[i] = entry("minecraft:stone" .. i) end
    s = assert(schematic.load(litematic(comp("r", xyz("Position", 0, 0, 0), xyz("Size", 64, 1, 1),
      D.list("BlockStatePalette", TAG.compound, pal16), D.longs("BlockStates", { 0x21, 0, 0, 0, -1 })))))
    assert.same({ "minecraft:stone2", "minecraft:stone3", "minecraft:stone1" },
      { s:get(0, 0, 0), s:get(1, 0, 0), s:get(2, 0, 0) })
    fails(litematic(comp("r", xyz("Position", 0, 0, 0), xyz("Size", 64, 1, 1),
      D.list("BlockStatePalette", TAG.compound, pal16), D.longs("BlockStates", { 0, 0, 0 }))),
      'region "r": BlockStates has 3 longs, 64 cells of 4 bits need 4')
    fails(litematic(region("r", { 0, 0, 0 }, { 2, 0, 1 }, pal, {})), 'region "r": Size has a zero extent')
    fails(litematic(comp("r", xyz("Position", 0, 0, 0), xyz("Size", 1, 1, 1),
      D.list("BlockStatePalette", TAG.compound, pal))), 'region "r": missing or invalid BlockStates')
    fails(litematic(region("r", { -2 ^ 31, 0, 0 }, { -2, 1, 1 }, pal, { 1, 1 })),
      "regions reach below the int32 range")
    -- max_bytes bounds the joined box, and before that every region's own cells
    local function fails_max(doc, max, expected)
      assert.same({ nil, "schematic: " .. expected }, { schematic.load(doc, { max_bytes = max }) })
    end
    local function ones(n)
      local t = {}
      for i = 1, n do t[i] = 1 end
      return t
    end
    -- (the documents themselves, about 1.3 KB, stay under max_bytes)
    fails_max(litematic(region("r", { 0, 0, 0 }, { 64, 64, 1 }, pal, ones(4096))), 3000,
      "regions of 64x64x1 cells would take 4096 bytes (max_bytes 3000)")
    fails_max(litematic(region("a", { 0, 0, 0 }, { 40, 40, 1 }, pal, ones(1600)),
      region("b", { 0, 0, 0 }, { 40, 40, 1 }, pal, ones(1600))), 2000,
      "regions hold 3200 cells, which would take 3200 bytes (max_bytes 2000)")
    local many = {}
    for i = 1, 65 do many[i] = region(("r%02d"):format(i), { i, 0, 0 }, { 1, 1, 1 }, pal, { 1 }) end
    fails(litematic(C.unpack_table(many)), "65 regions (at most 64)")
    fails(litematic(region("r", { 0, 0, 0 }, { 2, 1, 1 }, pal, { 1, 3 })),
      'region "r" cell 1: palette index 3 out of range (palette has 2 entries)')
    fails(litematic(comp("r", xyz("Position", 0, 0, 0), xyz("Size", 70000, 1, 1))),
      'region "r" Size.x must be an integer in -65535..65535')
    fails(litematic(region("a", { 0, 0, 0 }, { 1, 1, 1 }, pal, { 1 }),
      region("b", { 65535, 0, 0 }, { 1, 1, 1 }, pal, { 1 })),
      "regions span 65536x1x1 blocks (at most 65535 on each axis)")
  end)
end)
