-- luacheck: std +busted
-- Specs for blockphys.schematic: the real lobby schematic, hand-built
-- Sponge v2/v3 and MCEdit documents, hostile input, and pasting (into a
-- Lua stand-in world always, and into the real world once the core loads).

local schematic = require "blockphys.schematic"
local C = require "helpers.compat"
local H = require "helpers.world"
local zlib = require "zlib"

local pack = C.pack

local raises_here = H.raises_here

local LOBBY = "examples/data/limbo_spawn.schem"

---------------------------------------------------------------------------
-- NBT builders (tag type, name, payload)
---------------------------------------------------------------------------

local function tag(id, name, payload) return pack(">i1s2", id, name) .. payload end
local function short(name, v) return tag(2, name, pack(">i2", v)) end
local function int(name, v) return tag(3, name, pack(">i4", v)) end
local function bytes(name, s) return tag(7, name, pack(">i4", #s) .. s) end
local function str(name, s) return tag(8, name, pack(">s2", s)) end
local function comp(name, ...) return tag(10, name, table.concat({ ... }) .. "\0") end
local function ints(name, list)
  return tag(11, name, pack(">i4", #list) .. pack(">" .. string.rep("i4", #list), C.unpack_table(list)))
end

-- A palette compound from an ordered list of states (index = position - 1).
local function palette(name, states)
  local parts = {}
  for i, s in ipairs(states) do parts[i] = int(s, i - 1) end
  return tag(10, name, table.concat(parts) .. "\0") -- comp(name, unpack(parts)): 65,536 of them
end

local function gzip(s) return (zlib.deflate(6, 31)(s, "finish")) end

-- A Sponge v2 document; `fields` replaces or removes (false) top-level tags.
local function sponge2(w, h, l, states, data, fields)
  fields = fields or {}
  local parts = {}
  local defaults = {
    { "Version", int("Version", 2) }, { "DataVersion", int("DataVersion", 3465) },
    { "Width", short("Width", w) }, { "Height", short("Height", h) },
    { "Length", short("Length", l) }, { "Offset", ints("Offset", { 1, -2, 3 }) },
    { "PaletteMax", int("PaletteMax", #states) }, { "Palette", palette("Palette", states) },
    { "BlockData", bytes("BlockData", data) },
  }
  for _, d in ipairs(defaults) do
    local v = fields[d[1]]
    if v == nil then v = d[2] end
    if v then parts[#parts + 1] = v end
  end
  return comp("Schematic", C.unpack_table(parts))
end

local function varints(list)
  local out = {}
  for _, v in ipairs(list) do
    repeat
      local b = v % 128 -- v & 0x7F
      v = math.floor(v / 128) -- v >> 7
      out[#out + 1] = string.char(v > 0 and b + 128 or b)
    until v == 0
  end
  return table.concat(out)
end

local function fails(src, expected, opts)
  local ok, res, err = pcall(schematic.load, src, opts)
  assert.is_true(ok, "load raised: " .. tostring(res))
  assert.is_nil(res)
  assert.equal("string", type(err))
  if expected then assert.equal(expected, err) end
  return err
end

local function fails_matching(src, pattern, opts)
  local err = fails(src, nil, opts)
  assert.matches(pattern, err)
end

local read = H.read_file

---------------------------------------------------------------------------

describe("blockphys.schematic", function()
  describe("load() on the lobby schematic", function()
    local raw = assert(read(LOBBY), "the sample schematic is missing: " .. LOBBY)
    local schem

    before_each(function()
      schem = schem or assert(schematic.load(LOBBY))
    end)

    it("reads the size, offset and format from the file", function()
      assert.equal("sponge2", schem.format)
      assert.equal(41, schem.width)
      assert.equal(48, schem.height)
      assert.equal(35, schem.length)
      assert.same({ -106, 79, 57 }, schem.offset)
      assert.equal(4325, schem.data_version)
      assert.equal(1, schem.cell_bytes)
      assert.equal(41 * 48 * 35, #schem.blocks)
    end)

    it("reads the palette in index order", function()
      assert.equal(25, #schem.palette)
      assert.equal("minecraft:air", schem.palette[1])
      assert.equal("minecraft:end_stone", schem.palette[2])
      assert.equal("minecraft:sandstone_slab[type=top,waterlogged=false]", schem.palette[4])
      assert.equal("minecraft:jungle_leaves[distance=7,persistent=true,waterlogged=false]", schem.palette[6])
      assert.equal("minecraft:purpur_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]",
        schem.palette[10])
      assert.equal("minecraft:birch_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]",
        schem.palette[16])
      assert.equal("minecraft:end_rod[facing=down]", schem.palette[17])
      assert.equal("minecraft:oak_wall_sign[facing=east,waterlogged=false]", schem.palette[23])
      assert.equal("minecraft:player_head[powered=false,rotation=2]", schem.palette[25])
    end)

    it("counts the non-air blocks", function()
      assert.equal(2176, schem.count_nonair)
      local n, end_stone = 0, 0
      for y = 0, 47 do
        for z = 0, 34 do
          for x = 0, 40 do
            local s = schem:get(x, y, z)
            if s ~= "minecraft:air" then n = n + 1 end
            if s == "minecraft:end_stone" then end_stone = end_stone + 1 end
          end
        end
      end
      assert.equal(2176, n)
      assert.equal(1075, end_stone)
    end)

    it("puts blocks where the file's block entities say they are", function()
      -- Block entity positions are relative to the schematic's minimum corner.
      assert.equal("minecraft:player_head[powered=false,rotation=6]", schem:get(23, 10, 20))
      assert.equal("minecraft:player_head[powered=false,rotation=11]", schem:get(26, 17, 16))
      assert.equal("minecraft:oak_wall_sign[facing=east,waterlogged=false]", schem:get(19, 17, 22))
      assert.equal("minecraft:oak_wall_sign[facing=east,waterlogged=false]", schem:get(22, 29, 22))
      assert.equal("minecraft:player_head[powered=false,rotation=10]", schem:get(31, 24, 20))
      assert.equal("minecraft:player_head[powered=false,rotation=2]", schem:get(23, 30, 26))
    end)

    it("spot-checks other cells and the bounds", function()
      assert.equal("minecraft:air", schem:get(0, 0, 0))
      assert.equal("minecraft:end_stone", schem:get(24, 0, 24))
      assert.equal("minecraft:sea_lantern", schem:get(26, 6, 23))
      assert.equal("minecraft:purpur_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]",
        schem:get(25, 14, 27))
      assert.equal(7, schem:index(26, 6, 23))
      assert.equal(1, schem:index(40, 47, 34))
      assert.is_nil(schem:get(41, 0, 0))
      assert.is_nil(schem:get(0, 48, 0))
      assert.is_nil(schem:get(0, 0, -1))
      assert.is_nil(schem:get(0.5, 0, 0))
      assert.equal("minecraft:end_stone", schem:get(24, 0, 24))
    end)

    it("loads the same schematic from gzipped and uncompressed bytes", function()
      local from_bytes = assert(schematic.load(raw))
      assert.equal(schem.blocks, from_bytes.blocks)
      assert.same(schem.palette, from_bytes.palette)
      local plain = zlib.inflate()(raw)
      local from_nbt = assert(schematic.load(plain))
      assert.equal(schem.blocks, from_nbt.blocks)
      assert.equal(2176, from_nbt.count_nonair)
    end)

    it("rejects the file truncated at many points", function()
      for cut = 1, #raw - 1, 97 do
        local err = fails(raw:sub(1, cut))
        assert.matches("^schematic: ", err)
      end
      fails(raw:sub(1, 3000), "schematic: truncated gzip data (stream ends early)")
    end)

    it("rejects the uncompressed document truncated at many points", function()
      local plain = zlib.inflate()(raw)
      for cut = 1, #plain - 1, 331 do
        fails_matching(plain:sub(1, cut), "^schematic: nbt: ")
      end
    end)

    it("honours max_bytes", function()
      fails(LOBBY, "schematic: decompressed data exceeds 1000 bytes", { max_bytes = 1000 })
      fails(raw, "schematic: decompressed data exceeds 1000 bytes", { max_bytes = 1000 })
      assert(schematic.load(LOBBY, { max_bytes = C.MAXINT }))
    end)

    it("returns nil and a message for bad options", function()
      fails(LOBBY, "schematic: opts must be a table, got number", 5)
      fails(LOBBY, "schematic: unknown option foo (only max_bytes)", { foo = 1 })
      fails(LOBBY, "schematic: opts.max_bytes must be a non-negative integer", { max_bytes = -1 })
      fails(LOBBY, "schematic: opts.max_bytes must be a non-negative integer", { max_bytes = 1.5 })
      fails(LOBBY, "schematic: opts.max_bytes must be a non-negative integer", { max_bytes = false })
      fails(LOBBY, "schematic: unknown option of type table (only max_bytes)", { [{}] = 1 })
      -- options are read raw: metamethods that raise are never called
      local hostile = { __index = function() error("i") end, __pairs = function() error("p") end }
      assert.is_table(schematic.load(LOBBY, setmetatable({}, hostile)))
      assert.is_table(schematic.load(LOBBY, {}))
    end)
  end)

  describe("load() on Sponge v2 documents", function()
    local STATES = { "minecraft:air", "minecraft:stone",
      "minecraft:oak_stairs[facing=east,half=bottom,shape=straight]" }

    it("orders cells x, then z, then y", function()
      -- 2 x 2 x 2; cell = x + z*2 + y*4.
      local data = "\0\1\2\0" .. "\0\0\0\1"
      local s = assert(schematic.load(gzip(sponge2(2, 2, 2, STATES, data))))
      assert.equal("sponge2", s.format)
      assert.equal("minecraft:stone", s:get(1, 0, 0))
      assert.equal(STATES[3], s:get(0, 0, 1))
      assert.equal("minecraft:stone", s:get(1, 1, 1))
      assert.equal("minecraft:air", s:get(0, 1, 1))
      assert.equal(3, s.count_nonair)
      assert.same({ 1, -2, 3 }, s.offset)
      assert.equal(data, s.blocks)
    end)

    it("reads sizes above 32767 as unsigned shorts", function()
      local s = assert(schematic.load(sponge2(40000 - 65536, 1, 1, STATES, string.rep("\0", 40000))))
      assert.equal(40000, s.width)
      assert.equal(0, s.count_nonair)
    end)

    it("decodes multi-byte varints for palettes above 128 entries", function()
      local states = {}
      for i = 1, 200 do states[i] = "minecraft:test_" .. i end
      states[1] = "minecraft:air"
      local cells = { 0, 127, 128, 150, 199, 1 }
      local s = assert(schematic.load(sponge2(3, 2, 1, states, varints(cells))))
      assert.equal(1, s.cell_bytes)
      for i, v in ipairs(cells) do
        local x, y = (i - 1) % 3, C.idiv(i - 1, 3)
        assert.equal(states[v + 1], s:get(x, y, 0))
      end
      assert.equal(5, s.count_nonair)
    end)

    -- 257 .. 65,536 entries: 0-based indices fit in 16 bits (65,536 is the last such).
    for _, n in ipairs{ 300, 65536 } do
      it("stores two bytes per cell for a palette of " .. n .. " entries", function()
        local states = {}
        for i = 1, n do states[i] = "minecraft:test_" .. i end
        local cells = { n - 1, 0, 256, 255 }
        local s = assert(schematic.load(sponge2(2, 1, 2, states, varints(cells))))
        assert.equal(2, s.cell_bytes)
        assert.equal(8, #s.blocks)
        assert.equal("minecraft:test_" .. n, s:get(0, 0, 0))
        assert.equal("minecraft:test_1", s:get(1, 0, 0))
        assert.equal("minecraft:test_257", s:get(0, 0, 1))
        assert.equal(256, s:index(1, 0, 1)) -- 1-based
        assert.equal(4, s.count_nonair)
      end)
    end

    it("refuses a palette compound of 65,537 entries as it decodes it", function()
      local states = {}
      for i = 1, 65537 do states[i] = "minecraft:test_" .. i end
      local s, err = schematic.load(sponge2(1, 1, 1, states, varints{ 0 }))
      assert.is_nil(s)
      assert.matches("^schematic: nbt: compound Palette of more than 65536 entries at byte %d+$", err)
    end)

    it("loads a file whose tool Metadata holds more than 65,536 entries (never decoded)", function()
      local meta = {}
      for i = 1, 70000 do meta[i] = int("k" .. i, i) end
      local s = assert(schematic.load(sponge2(1, 1, 1, STATES, "\1",
        { Offset = comp("Metadata", table.concat(meta)) })))
      assert.equal(STATES[2], s:get(0, 0, 0))
    end)

    it("accepts a missing Offset and a Sponge v1 document", function()
      local s = assert(schematic.load(sponge2(1, 1, 1, STATES, "\2", {
        Offset = false, Version = int("Version", 1) })))
      assert.same({ 0, 0, 0 }, s.offset)
      assert.equal("sponge1", s.format)
    end)

    it("accepts zero-sized schematics", function()
      local s = assert(schematic.load(sponge2(0, 5, 5, STATES, "")))
      assert.equal(0, s.count_nonair)
      assert.equal("", s.blocks)
    end)
  end)

  describe("load() on Sponge v3 documents", function()
    local function sponge3(blocks_fields)
      return comp("", comp("Schematic",
        int("Version", 3), int("DataVersion", 3953),
        short("Width", 2), short("Height", 1), short("Length", 2),
        ints("Offset", { -5, 60, 7 }),
        comp("Blocks", C.unpack_table(blocks_fields)),
        comp("Metadata", str("Name", "tiny"))))
    end

    it("reads Blocks.Palette and Blocks.Data", function()
      local doc = sponge3({
        palette("Palette", { "minecraft:air", "minecraft:oak_slab[type=top,waterlogged=false]",
          "minecraft:ladder[facing=south]" }),
        bytes("Data", "\1\0\2\1"),
      })
      local s = assert(schematic.load(gzip(doc)))
      assert.equal("sponge3", s.format)
      assert.same({ -5, 60, 7 }, s.offset)
      assert.equal(3953, s.data_version)
      assert.equal("minecraft:oak_slab[type=top,waterlogged=false]", s:get(0, 0, 0))
      assert.equal("minecraft:ladder[facing=south]", s:get(0, 0, 1))
      assert.equal(3, s.count_nonair)
    end)

    it("reports problems with the nested names", function()
      fails(gzip(sponge3({ bytes("Data", "\0\0\0\0") })), "schematic: missing or invalid Blocks.Palette")
      fails(gzip(sponge3({ palette("Palette", { "minecraft:air" }) })),
        "schematic: missing or invalid Blocks.Data")
      fails(gzip(sponge3({ palette("Palette", { "minecraft:air" }), bytes("Data", "\0\0\0\3") })),
        "schematic: Blocks.Data cell 3: palette index 3 out of range (palette has 1 entries)")
    end)
  end)

  describe("load() on MCEdit documents", function()
    local function mcedit(w, h, l, ids, metas, extra)
      return comp("Schematic", short("Width", w), short("Height", h), short("Length", l),
        str("Materials", "Alpha"), bytes("Blocks", ids), bytes("Data", metas),
        int("WEOffsetX", -1), int("WEOffsetY", 2), int("WEOffsetZ", -3), extra or "")
    end

    it("maps numeric ids and metadata to modern states", function()
      -- 4 x 2 x 1: y = 0 row then y = 1 row.
      local ids = string.char(1, 53, 44, 64, 65, 126, 0, 64)
      local metas = string.char(0, 5, 8, 1, 3, 9, 0, 9)
      local s = assert(schematic.load(gzip(mcedit(4, 2, 1, ids, metas))))
      assert.equal("mcedit", s.format)
      assert.same({ -1, 2, -3 }, s.offset)
      assert.equal("minecraft:stone", s:get(0, 0, 0))
      assert.equal("minecraft:oak_stairs[facing=west,half=top,shape=straight]", s:get(1, 0, 0))
      assert.equal("minecraft:smooth_stone_slab[type=top]", s:get(2, 0, 0))
      -- The door's halves complete each other: facing/open below, hinge above.
      assert.equal("minecraft:oak_door[facing=south,half=lower,hinge=right,open=false]", s:get(3, 0, 0))
      assert.equal("minecraft:oak_door[facing=south,half=upper,hinge=right,open=false]", s:get(3, 1, 0))
      assert.equal("minecraft:ladder[facing=south]", s:get(0, 1, 0))
      assert.equal("minecraft:spruce_slab[type=top]", s:get(1, 1, 0))
      assert.equal("minecraft:air", s:get(2, 1, 0))
      assert.equal(7, s.count_nonair)
    end)

    it("adds AddBlocks nibbles (even cells low, odd cells high) and names unknown ids", function()
      local ids = string.char(44, 1, 20)
      -- cell 0 gets +0x100 (id 300), cell 1 gets +0x200 (id 513), cell 2 nothing.
      local s = assert(schematic.load(mcedit(3, 1, 1, ids, "\0\0\0", bytes("AddBlocks", "\33\0"))))
      assert.equal("minecraft:unknown_300", s:get(0, 0, 0))
      assert.equal("minecraft:unknown_513", s:get(1, 0, 0))
      assert.equal("minecraft:glass", s:get(2, 0, 0))
    end)

    -- cases: { id, meta, the state legacy_state must give }
    local function assert_states(cases)
      for _, c in ipairs(cases) do
        assert.equal(c[3], schematic.legacy_state(c[1], c[2]), c[1] .. ":" .. c[2])
      end
    end

    it("maps the common legacy ids", function()
      local cases = {
        { 0, 0, "minecraft:air" }, { 2, 0, "minecraft:grass_block" }, { 3, 0, "minecraft:dirt" },
        { 4, 0, "minecraft:cobblestone" }, { 5, 2, "minecraft:birch_planks" },
        { 7, 0, "minecraft:bedrock" }, { 9, 0, "minecraft:water" }, { 11, 0, "minecraft:lava" },
        { 8, 3, "minecraft:water[level=3]" }, { 10, 9, "minecraft:lava[level=9]" },
        { 12, 0, "minecraft:sand" }, { 13, 0, "minecraft:gravel" },
        { 17, 5, "minecraft:spruce_log[axis=x]" }, { 18, 6, "minecraft:birch_leaves" },
        { 20, 0, "minecraft:glass" }, { 31, 1, "minecraft:short_grass" },
        { 37, 0, "minecraft:dandelion" }, { 38, 4, "minecraft:red_tulip" },
        { 50, 1, "minecraft:wall_torch[facing=east]" }, { 50, 5, "minecraft:torch" },
        { 60, 7, "minecraft:farmland" }, { 63, 4, "minecraft:oak_sign" },
        { 65, 5, "minecraft:ladder[facing=east]" }, { 66, 0, "minecraft:rail" },
        { 67, 2, "minecraft:cobblestone_stairs[facing=south,half=bottom,shape=straight]" },
        { 68, 2, "minecraft:oak_wall_sign[facing=north]" },
        { 78, 3, "minecraft:snow[layers=4]" }, { 79, 0, "minecraft:ice" },
        { 81, 0, "minecraft:cactus" }, { 85, 0, "minecraft:oak_fence" },
        { 88, 0, "minecraft:soul_sand" },
        { 96, 6, "minecraft:oak_trapdoor[facing=west,half=bottom,open=true]" },
        { 101, 0, "minecraft:iron_bars" }, { 102, 0, "minecraft:glass_pane" },
        { 108, 3, "minecraft:brick_stairs[facing=north,half=bottom,shape=straight]" },
        { 109, 4, "minecraft:stone_brick_stairs[facing=east,half=top,shape=straight]" },
        { 114, 1, "minecraft:nether_brick_stairs[facing=west,half=bottom,shape=straight]" },
        { 126, 3, "minecraft:jungle_slab[type=bottom]" },
        { 128, 0, "minecraft:sandstone_stairs[facing=east,half=bottom,shape=straight]" },
        { 134, 0, "minecraft:spruce_stairs[facing=east,half=bottom,shape=straight]" },
        { 136, 7, "minecraft:jungle_stairs[facing=north,half=top,shape=straight]" },
        { 139, 1, "minecraft:mossy_cobblestone_wall" }, { 156, 2,
          "minecraft:quartz_stairs[facing=south,half=bottom,shape=straight]" },
        { 159, 14, "minecraft:red_terracotta" }, { 163, 0,
          "minecraft:acacia_stairs[facing=east,half=bottom,shape=straight]" },
        { 171, 10, "minecraft:purple_carpet" }, { 174, 0, "minecraft:packed_ice" },
        { 180, 1, "minecraft:red_sandstone_stairs[facing=west,half=bottom,shape=straight]" },
        { 164, 0, "minecraft:dark_oak_stairs[facing=east,half=bottom,shape=straight]" },
        { 135, 0, "minecraft:birch_stairs[facing=east,half=bottom,shape=straight]" },
        { 253, 0, "minecraft:unknown_253" },
      }
      assert_states(cases)
    end)

    -- 1.12's getStateFromMeta: EnumFacing.getFront(v) takes v mod 6 (down, up, north,
    -- south, west, east), horizontal blocks turn up and down into north;
    -- getHorizontal(v) is south, west, north, east.
    it("decodes facings as the game's getFront and getHorizontal do", function()
      local cases = {
        { 65, 9, "minecraft:ladder[facing=south]" }, { 65, 10, "minecraft:ladder[facing=west]" },
        { 65, 11, "minecraft:ladder[facing=east]" }, { 65, 12, "minecraft:ladder[facing=north]" },
        { 65, 15, "minecraft:ladder[facing=south]" }, { 54, 7, "minecraft:chest[facing=north]" },
        { 198, 8, "minecraft:end_rod[facing=north]" }, { 198, 12, "minecraft:end_rod[facing=down]" },
        { 198, 6, "minecraft:end_rod[facing=down]" },
        { 33, 0, "minecraft:piston[extended=false,facing=down]" },
        { 33, 13, "minecraft:piston[extended=true,facing=east]" },
        { 29, 9, "minecraft:sticky_piston[extended=true,facing=up]" },
        { 34, 1, "minecraft:piston_head[facing=up,short=false,type=normal]" },
        { 34, 13, "minecraft:piston_head[facing=east,short=false,type=sticky]" },
        -- 6 and 7 name no facing (getFacing gives none): north, our choice
        { 33, 14, "minecraft:piston[extended=true,facing=north]" },
        { 34, 7, "minecraft:piston_head[facing=north,short=false,type=normal]" },
        { 26, 0, "minecraft:red_bed[facing=south,part=foot]" },
        { 26, 11, "minecraft:red_bed[facing=east,part=head]" },
        { 127, 7, "minecraft:cocoa[age=1,facing=east]" }, { 127, 8, "minecraft:cocoa[age=2,facing=south]" },
        -- a variant past the table is the default one (byMetadata)
        { 139, 3, "minecraft:cobblestone_wall" }, { 155, 7, "minecraft:quartz_block" },
        { 155, 4, "minecraft:quartz_pillar[axis=z]" },
      }
      assert_states(cases)
      -- and the shapes follow: an extended piston is a 12/16 base, a ladder hugs its wall
      assert.same({ { 0, 0, 0, 1, 0.75, 1 } },
        require("blockphys").minecraft.block_def(schematic.legacy_state(29, 9)).boxes)
      assert.same({ { 0, 0, 0, 1, 1, 0.1875 } },
        require("blockphys").minecraft.block_def(schematic.legacy_state(65, 9)).boxes)
    end)

    it("completes a door half only from the same door above or below it", function()
      -- an upper half (meta 8: hinge left) over stone, and over air: BlockDoor's defaults
      for _, below in ipairs({ 1, 0 }) do
        local s = assert(schematic.load(mcedit(1, 2, 1, string.char(below, 64), "\3\8")))
        assert.equal("minecraft:oak_door[facing=north,half=upper,hinge=left,open=false]", s:get(0, 1, 0))
      end
      -- two upper halves stacked: the top one reads no lower half (BlockDoor's defaults)
      local s = assert(schematic.load(mcedit(1, 2, 1, "\64\64", "\9\9")))
      assert.equal("minecraft:oak_door[facing=north,half=upper,hinge=right,open=false]", s:get(0, 1, 0))
      -- a lower half (meta 5: facing south, open) under a different door keeps hinge left
      s = assert(schematic.load(mcedit(1, 2, 1, "\64\71", "\5\9")))
      assert.equal("minecraft:oak_door[facing=south,half=lower,hinge=left,open=true]", s:get(0, 0, 0))
    end)


    -- BlockDoor.getActualState (1.12): a lower half takes HINGE from the same door
    -- above it; a lower half's metadata names no hinge (getStateFromMeta leaves it
    -- LEFT), so a lower half under another lower half keeps hinge left.
    it("does not read a hinge from a lower door half stacked above a lower half", function()
      -- meta 5 (facing south, open) under meta 1 (a lower half whose bit 0 is set)
      local s = assert(schematic.load(mcedit(1, 2, 1, "\64\64", "\5\1")))
      assert.equal("minecraft:oak_door[facing=south,half=lower,hinge=left,open=true]", s:get(0, 0, 0))
    end)

    -- Blocks and Data longer than the cells are accepted, and the bytes past the last cell
    -- are no cell: a door in the top layer has nothing above it.
    it("reads no door half from bytes past the last cell", function()
      -- one cell, a lower half (meta 1: facing south); then an upper half's bytes (meta 9)
      local s = assert(schematic.load(mcedit(1, 1, 1, "\64\64", "\1\9")))
      assert.equal("minecraft:oak_door[facing=south,half=lower,hinge=left,open=false]", s:get(0, 0, 0))
    end)

    -- BlockFenceGate: facing getHorizontal(meta & 3) (0 south, 1 west, 2 north, 3 east);
    -- BlockFurnace (lit too) and BlockEnderChest: facing getFront(meta), up and down read
    -- as north.
    it("maps the facings of fence gates, lit furnaces and ender chests", function()
      assert_states({
        { 107, 0, "minecraft:oak_fence_gate[facing=south,open=false]" },
        { 107, 2, "minecraft:oak_fence_gate[facing=north,open=false]" },
        { 107, 7, "minecraft:oak_fence_gate[facing=east,open=true]" },
        { 62, 5, "minecraft:furnace[facing=east]" }, { 62, 0, "minecraft:furnace[facing=north]" },
        { 130, 3, "minecraft:ender_chest[facing=south]" }, { 130, 1, "minecraft:ender_chest[facing=north]" },
      })
    end)

    it("legacy_state checks its arguments and meta_at's answers", function()
      local function bad(n, msg) return "bad argument #" .. n .. " to 'legacy_state' (" .. msg .. ")" end
      local ls = schematic.legacy_state
      raises_here(bad(1, "id must be an integer 0..4095, got nil"), function() ls(nil, 0) end)
      raises_here(bad(1, "id must be an integer 0..4095, got 4096"), function() ls(4096, 0) end)
      raises_here(bad(1, "id must be an integer 0..4095, got -1"), function() ls(-1, 0) end)
      raises_here(bad(1, "id must be an integer 0..4095, got 1.5"), function() ls(1.5, 0) end)
      raises_here(bad(1, "id must be an integer 0..4095, got string"), function() ls("1", 0) end)
      raises_here(bad(2, "meta must be an integer 0..15, got nil"), function() ls(1, nil) end)
      raises_here(bad(2, "meta must be an integer 0..15, got 16"), function() ls(35, 16) end)
      raises_here(bad(2, "meta must be an integer 0..15, got -1"), function() ls(35, -1) end)
      raises_here(bad(3, "meta_at must be a function or nil, got number"), function() ls(64, 0, 5) end)
      raises_here(bad(3, "meta_at(1) must return nil or an integer 0..15, got 16"),
        function() ls(64, 0, function() return 16 end) end)
      raises_here(bad(3, "meta_at(-1) must return nil or an integer 0..15, got string"),
        function() ls(64, 8, function() return "4" end) end)
      -- the bounds themselves are accepted
      assert.equal("minecraft:unknown_4095", ls(4095, 15))
      assert.equal("minecraft:black_wool", ls(35, 15))
      assert.equal("minecraft:air", ls(0, 0))
      assert.equal("minecraft:oak_door[facing=north,half=upper,hinge=right,open=true]",
        ls(64, 9, function(dy) assert.equal(-1, dy); return 7 end))
    end)

    it("rejects short arrays and other materials", function()
      fails(mcedit(2, 2, 1, "\1\1\1", "\0\0\0\0"), "schematic: Blocks too short: 4 cells, got 3 bytes")
      fails(mcedit(2, 2, 1, "\1\1\1\1", "\0"), "schematic: Data too short: 4 cells, got 1 bytes")
      fails(comp("Schematic", short("Width", 1), short("Height", 1), short("Length", 1),
        str("Materials", "Classic"), bytes("Blocks", "\1"), bytes("Data", "\0")),
        'schematic: unsupported MCEdit Materials "Classic" (only Alpha)')
      -- another tag is named by its kind, not by an address that differs between runs
      fails(comp("Schematic", short("Width", 1), short("Height", 1), short("Length", 1),
        comp("Materials"), bytes("Blocks", "\1"), bytes("Data", "\0")),
        "schematic: unsupported MCEdit Materials (a compound) (only Alpha)")
      fails(comp("Schematic", short("Width", 1), short("Height", 1), short("Length", 1),
        int("Materials", 7), bytes("Blocks", "\1"), bytes("Data", "\0")),
        "schematic: unsupported MCEdit Materials 7 (only Alpha)")
    end)
  end)

  describe("load() on bad input", function()
    local STATES = { "minecraft:air", "minecraft:stone", "minecraft:dirt" }

    it("rejects non-strings", function()
      fails(nil, "schematic: expected a file path or schematic data (string), got nil")
      fails({}, "schematic: expected a file path or schematic data (string), got table")
      fails("", "schematic: empty string (expected a file path or schematic data)")
    end)

    it("reports a missing file", function()
      fails("no/such/file.schem", "schematic: cannot open file: no/such/file.schem: No such file or directory")
    end)

    it("rejects garbage", function()
      fails("\1\2\0\3garbage", "schematic: not a schematic (expected gzip or NBT data)")
      fails_matching("\31\139\8\0garbage garbage", "^schematic: corrupted gzip data %(")
    end)

    it("has the default max_bytes docs/schematics.md documents (256 MiB)", function()
      assert.equal(256 * 1024 * 1024, schematic.MAX_BYTES)
    end)

    it("inflates a gzip stream of several 16 KiB pieces and ignores padding after it", function()
      -- Pins the piecewise inflate (schematic.lua inflate_all): pieces of INFLATE_PIECE
      -- bytes with none dropped or repeated, and the stop at the end of the gzip member
      -- (bytes after it are padding, never fed to zlib). 40^3 cells of seeded indices
      -- 0..99 barely compress, so the stream spans several pieces; 40,000 padding bytes
      -- span two more.
      local states = {}
      for i = 1, 100 do states[i] = "minecraft:test_" .. i end
      local rnd, cells = H.rng(5), {}
      for i = 1, 40 * 40 * 40 do cells[i] = string.char(math.floor(rnd() * 100)) end
      local data = table.concat(cells)
      local gz = gzip(sponge2(40, 40, 40, states, data))
      assert.is_true(#gz > 3 * 16 * 1024)
      local s = assert(schematic.load(gz .. string.rep("\0\1", 20000)))
      for _, i in ipairs{ 1, 16385, 40 * 40 * 40 } do
        local x, y, z = (i - 1) % 40, C.idiv(i - 1, 1600), C.idiv(i - 1, 40) % 40
        assert.equal(states[data:byte(i) + 1], s:get(x, y, z))
      end
    end)

    it("rejects a gzip stream that ends early", function()
      local gz = gzip(sponge2(2, 2, 2, STATES, "\0\1\2\0\0\0\0\1"))
      fails(gz:sub(1, #gz - 10), "schematic: truncated gzip data (stream ends early)")
    end)

    it("rejects a truncated NBT document inside a complete gzip stream", function()
      local doc = sponge2(2, 2, 2, STATES, "\0\1\2\0\0\0\0\1")
      fails_matching(gzip(doc:sub(1, 40)), "^schematic: nbt: truncated ")
    end)

    it("rejects a root that is not a schematic", function()
      fails(gzip(comp("Level", comp("Data", int("x", 1)))),
        'schematic: not a schematic: root "Level" has no Version, Blocks, Regions or size and blocks')
      fails(gzip(tag(9, "", pack(">i1i4", 1, 0))), 'schematic: not a schematic: root tag "" is not a compound')
      fails(gzip(comp("Schematic", int("Version", 4))), "schematic: unsupported Sponge schematic version 4")
      fails(gzip(comp("Schematic", str("Version", "2"))), "schematic: invalid Version")
    end)

    it("names missing keys", function()
      local data = "\0\1\2\0\0\0\0\1"
      fails(sponge2(2, 2, 2, STATES, data, { Width = false }), "schematic: missing or invalid Width")
      fails(sponge2(2, 2, 2, STATES, data, { Length = str("Length", "2") }), "schematic: missing or invalid Length")
      fails(sponge2(2, 2, 2, STATES, data, { Palette = false }), "schematic: missing or invalid Palette")
      fails(sponge2(2, 2, 2, STATES, data, { BlockData = false }), "schematic: missing or invalid BlockData")
      fails(sponge2(2, 2, 2, STATES, data, { Offset = ints("Offset", { 1, 2 }) }),
        "schematic: invalid Offset (expected an int array of 3)")
    end)

    it("rejects BlockData shorter than the size", function()
      fails(sponge2(2, 2, 2, STATES, "\0\1\2\0\0"),
        "schematic: BlockData too short: 8 cells need at least 8 bytes, got 5")
      -- Enough bytes, but two-byte varints leave too few cells.
      local states = {}
      for i = 1, 200 do states[i] = "minecraft:test_" .. i end
      fails(sponge2(2, 2, 2, states, varints({ 150, 150, 150, 150 })),
        "schematic: BlockData too short: ends after 4 of 8 cells")
    end)

    it("rejects BlockData with bytes after the last cell", function()
      fails(sponge2(2, 1, 1, { "minecraft:air" }, "\0\0\0\0"),
        "schematic: BlockData has 2 bytes after the last of 2 cells")
    end)

    it("rejects palette indices out of range", function()
      fails(sponge2(2, 2, 2, STATES, "\0\1\2\5\0\0\0\1"),
        "schematic: BlockData cell 3: palette index 5 out of range (palette has 3 entries)")
      fails(sponge2(1, 1, 2, STATES, varints({ 0, 1000 })),
        "schematic: BlockData cell 1: palette index 1000 out of range (palette has 3 entries)")
    end)

    it("rejects overlong and oversized varints", function()
      fails(sponge2(1, 1, 1, STATES, "\255\255\255\255\255\1"),
        "schematic: BlockData: varint at byte 0 is longer than 5 bytes")
      fails(sponge2(1, 1, 1, STATES, "\255\255\255\255\15"),
        "schematic: BlockData: varint at byte 0 exceeds 32 bits")
      fails(sponge2(1, 1, 1, STATES, "\255"),
        "schematic: BlockData: truncated varint at the end of the block data")
    end)

    it("reports the first bad palette entry in name order, whatever the document order", function()
      -- pairs over the decoded compound follows the hash order, which Lua seeds per
      -- state: eight documents list twenty out-of-range entries in different orders
      for shift = 0, 7 do
        local entries = {}
        for i = 1, 20 do
          local k = (i * 7 + shift * 3) % 20 + 1
          entries[i] = int(("minecraft:k%02d"):format(k), 65535 + k)
        end
        fails(sponge2(1, 1, 1, STATES, "\0", { Palette = comp("Palette", C.unpack_table(entries)) }),
          'schematic: Palette index 65536 of "minecraft:k01" out of range 0..65535')
      end
    end)

    -- The specification only recommends indices 0..n-1; WorldEdit takes any.
    it("reads a palette whose indices skip values: the gaps are air", function()
      local pal = comp("Palette", int("minecraft:stone", 5), int("minecraft:dirt", 2))
      local s = assert(schematic.load(sponge2(3, 1, 1, {}, "\5\2\0", { Palette = pal })))
      assert.same({ "minecraft:stone", "minecraft:dirt", "minecraft:air" },
        { s:get(0, 0, 0), s:get(1, 0, 0), s:get(2, 0, 0) })
      assert.equal(6, #s.palette)
      assert.equal(2, s.count_nonair)
    end)

    it("rejects bad palettes", function()
      local data = "\0"
      fails(sponge2(1, 1, 1, {}, data), "schematic: Palette is empty")
      fails(sponge2(1, 1, 1, STATES, data, { Palette = comp("Palette", int("minecraft:stone", 65536)) }),
        'schematic: Palette index 65536 of "minecraft:stone" out of range 0..65535')
      fails(sponge2(1, 1, 1, STATES, data, { Palette = comp("Palette", int("a", 0), int("b", 0)) }),
        "schematic: Palette index 0 used twice")
      fails(sponge2(1, 1, 1, STATES, data, { Palette = comp("Palette", str("minecraft:stone", "0")) }),
        'schematic: Palette entry "minecraft:stone" has a non-integer index')
      fails(sponge2(1, 1, 1, STATES, data, { Palette = comp("Palette", int("minecraft:stone[", 0)) }),
        'schematic: Palette entry: bad block state "minecraft:stone[": expected [key=value,...] after the name')
    end)

    it("rejects a hostile size header without allocating for it", function()
      collectgarbage()
      local before = collectgarbage("count")
      -- 65535^3 cells claimed, 10 bytes of data.
      fails(sponge2(-1, -1, -1, STATES, string.rep("\0", 10)),
        "schematic: BlockData too short: 281462092005375 cells need at least 281462092005375 bytes, got 10")
      -- 2^31 cells.
      fails(gzip(sponge2(-32768, -32768, 2, STATES, "\0\1")),
        "schematic: BlockData too short: 2147483648 cells need at least 2147483648 bytes, got 2")
      fails(comp("Schematic", short("Width", -1), short("Height", -1), short("Length", -1),
        bytes("Blocks", "\1"), bytes("Data", "\0")),
        "schematic: Blocks too short: 281462092005375 cells, got 1 bytes")
      assert.is_true(collectgarbage("count") - before < 1024, "allocated over 1 MiB")
    end)

    it("rejects a compression bomb past max_bytes", function()
      local bomb = gzip(string.rep("\0", 4 * 1024 * 1024))
      fails(bomb, "schematic: decompressed data exceeds 1048576 bytes", { max_bytes = 1024 * 1024 })
    end)

    it("never raises on random corruption of a small document", function()
      local doc = sponge2(2, 2, 2, STATES, "\0\1\2\0\0\0\0\1")
      H.each_corruption(doc, 99, 2000, function(bad)
        local ok, res, err = pcall(schematic.load, bad)
        assert.is_true(ok)
        assert.is_true(res ~= nil or type(err) == "string")
      end)
    end)
  end)

  describe("parse_state()", function()
    it("splits a state into name and properties", function()
      local name, props = schematic.parse_state("minecraft:oak_stairs[facing=east,half=bottom]")
      assert.equal("minecraft:oak_stairs", name)
      assert.same({ facing = "east", half = "bottom" }, props)
    end)
  end)

  -------------------------------------------------------------------------
  -- Pasting
  -------------------------------------------------------------------------

  -- A stand-in world implementing the API paste relies on, recording calls.
  local function fake_world()
    local w = { types = {}, by_name = {}, cells = {}, calls = 0 }
    function w:define_block(def)
      assert(not self.by_name[def.name], "duplicate block name " .. def.name)
      self.types[#self.types + 1] = def
      self.by_name[def.name] = #self.types
      return #self.types
    end
    function w:block_id(name) return self.by_name[name] end
    function w:set_block(x, y, z, id)
      self.calls = self.calls + 1
      self.cells[x .. "," .. y .. "," .. z] = id
    end
    function w:get_block(x, y, z) return self.cells[x .. "," .. y .. "," .. z] or 0 end
    return w
  end

  local function tiny()
    return assert(schematic.load(sponge2(2, 2, 2, { "minecraft:air", "minecraft:stone",
      "minecraft:oak_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]",
      "minecraft:frobnicator[x=1]" }, "\0\1\2\0\3\0\0\1")))
  end

  describe("paste() into a stand-in world", function()
    -- One-byte cells skip runs of air with a pattern of the air indices: indices that
    -- are pattern characters (% ] ^ - and \0) must stay literal.
    it("places every non-air cell of a box whose air indices are pattern characters", function()
      local pal = {}
      for i = 1, 120 do pal[i] = "minecraft:stone" end
      for _, i in ipairs{ 37, 45, 91, 93, 94, 46, 42, 0x5c } do pal[i + 1] = "minecraft:air" end
      pal[1] = "minecraft:air" -- and index 0
      local w, h, l = 7, 5, 6
      local cells, rand = {}, 12345
      for c = 1, w * h * l do
        rand = (C.mul32(rand, 1103515245) + 12345) % 2147483648
        cells[c] = string.char(rand % 120)
      end
      local schem = { width = w, height = h, length = l, palette = pal, cell_bytes = 1,
                      blocks = table.concat(cells) }
      local world = fake_world()
      local report = schematic.paste(world, schem, 100, 200, 300)
      local expected = 0
      for c = 1, #cells do
        local i = c - 1
        local x, y, z = 100 + i % w, 200 + C.idiv(i, w * l), 300 + C.idiv(i, w) % l
        local air = pal[cells[c]:byte() + 1] == "minecraft:air"
        if not air then expected = expected + 1 end
        assert.equal(air and 0 or world:block_id("minecraft:stone"), world:get_block(x, y, z),
          ("cell %d (index %d)"):format(i, cells[c]:byte()))
      end
      assert.equal(expected, report.placed)
      assert.equal(expected, world.calls)
    end)

    it("places non-air cells from the minimum corner and reports guesses", function()
      local world = fake_world()
      local report = schematic.paste(world, tiny(), 10, -64, 2147483646)
      assert.same({ placed = 4, guessed = { "minecraft:frobnicator" } }, report)
      local stone = world:block_id("minecraft:stone")
      local stairs = world:block_id("minecraft:oak_stairs[facing=east,half=bottom,shape=straight]")
      assert.equal(stone, world:get_block(11, -64, 2147483646))
      assert.equal(stairs, world:get_block(10, -64, 2147483647))
      assert.equal(world:block_id("minecraft:frobnicator"), world:get_block(10, -63, 2147483646))
      assert.equal(stone, world:get_block(11, -63, 2147483647))
      assert.equal(0, world:get_block(10, -64, 2147483646))
      assert.equal(4, world.calls)
      assert.same({ { 0, 0, 0, 1, 0.5, 1 }, { 0.5, 0.5, 0, 1, 1, 1 } }, world.types[stairs].boxes)
    end)

    it("reuses block types the world already has", function()
      local world = fake_world()
      schematic.paste(world, tiny(), 0, 0, 0)
      local n = #world.types
      schematic.paste(world, tiny(), 5, 0, 0)
      assert.equal(n, #world.types)
    end)

    it("uses a custom shape table", function()
      local world = fake_world()
      local shapes = { block_def = function(state)
        return { name = "custom:" .. state, boxes = {} }, true
      end }
      local report = schematic.paste(world, tiny(), 0, 0, 0, shapes)
      assert.same({}, report.guessed)
      assert.is_not_nil(world:block_id("custom:minecraft:stone"))
    end)

    it("raises on bad arguments and leaves the world untouched", function()
      local world, s = fake_world(), tiny()
      local function untouched()
        assert.equal(0, #world.types)
        assert.equal(0, world.calls)
      end
      assert.has_error(function() schematic.paste(nil, s, 0, 0, 0) end,
        "bad argument #1 to 'paste' (world expected, got nil)")
      assert.has_error(function() schematic.paste({}, s, 0, 0, 0) end,
        "bad argument #1 to 'paste' (world has no method 'define_block')")
      assert.has_error(function() schematic.paste(world, "x", 0, 0, 0) end,
        "bad argument #2 to 'paste' (schematic expected, got string)")
      assert.has_error(function() schematic.paste(world, { width = 1 }, 0, 0, 0) end,
        "bad argument #2 to 'paste' (schematic has no valid height)")
      assert.has_error(function() schematic.paste(world, s, 1.5, 0, 0) end,
        "bad argument #3 to 'paste' (number has no integer representation)")
      assert.has_error(function() schematic.paste(world, s, 0, "1", 0) end,
        "bad argument #4 to 'paste' (number expected, got string)")
      assert.has_error(function() schematic.paste(world, s, 0, 0, 2147483647) end,
        "bad argument #5 to 'paste' (block coordinate out of the int32 range)")
      assert.has_error(function() schematic.paste(world, s, -2147483649, 0, 0) end,
        "bad argument #3 to 'paste' (block coordinate out of the int32 range)")
      assert.has_error(function() schematic.paste(world, s, 0, 0, 0, {}) end,
        "bad argument #6 to 'paste' (shape table with a block_def function expected)")
      local bad_shapes = { block_def = function(state)
        if state == "minecraft:stone" then return { name = "s", boxes = { { 0, 0, 0, 1, 3, 1 } } }, true end
        return { name = state }, true
      end }
      assert.has_error(function() schematic.paste(world, s, 0, 0, 0, bad_shapes) end,
        "bad argument #6 to 'paste' (block_def(\"minecraft:stone\"): "
          .. "box Y must be in [0, 2] (at most one block above the cell))")
      -- a palette cut short by hand: cell 4 holds index 3, which has no entry now
      local cut = tiny()
      table.remove(cut.palette)
      assert.has_error(function() schematic.paste(world, cut, 0, 0, 0) end,
        "bad argument #2 to 'paste' (schematic cell 4: palette index 3 out of range (palette has 3 entries))")
      local wide = { width = 1, height = 1, length = 2, palette = { "minecraft:stone" },
                     blocks = "\0\0\1\0", cell_bytes = 2 }
      assert.has_error(function() schematic.paste(world, wide, 0, 0, 0) end,
        "bad argument #2 to 'paste' (schematic cell 1: palette index 256 out of range (palette has 1 entries))")
      -- a palette with a hole: whichever border # finds, something raises
      local holed = tiny()
      holed.palette[3] = nil
      local ok, err = pcall(schematic.paste, world, holed, 0, 0, 0)
      assert.is_false(ok)
      assert.truthy(err:find("(palette entry 3 is not a string)", 1, true)
        or err:find("(schematic cell 2: palette index 2 out of range (palette has 2 entries))", 1, true), err)
      untouched()
    end)

    it("reports argument errors at the caller's line, whatever check raised them", function()
      local world, s = fake_world(), tiny()
      raises_here("bad argument #1 to 'paste' (world has no method 'block_id')",
        function() schematic.paste({ define_block = print }, s, 0, 0, 0) end)
      local bad = { width = 0, height = 0, length = 0, palette = { 1 }, blocks = "", cell_bytes = 1 }
      raises_here("bad argument #2 to 'paste' (palette entry 1 is not a string)",
        function() schematic.paste(world, bad, 0, 0, 0) end)
      raises_here("bad argument #3 to 'paste' (number has no integer representation)",
        function() schematic.paste(world, s, 1.5, 0, 0) end)
      raises_here("bad argument #5 to 'paste' (block coordinate out of the int32 range)",
        function() schematic.paste(world, s, 0, 0, 2147483647) end)
      raises_here("bad argument #6 to 'paste' (shape table with a block_def function expected)",
        function() schematic.paste(world, s, 0, 0, 0, {}) end)
      local boxes = { block_def = function(state) return { name = state, boxes = { 1 } }, true end }
      raises_here("bad argument #6 to 'paste' (block_def(\"minecraft:stone\"): "
          .. "boxes[1] must be a table {x1,y1,z1,x2,y2,z2})",
        function() schematic.paste(world, s, 0, 0, 0, boxes) end)
      assert.equal(0, #world.types)
    end)

    it("skips the type limit for a stand-in world whose stats are not a blockphys table", function()
      local world = fake_world()
      world.stats = function() end
      assert.equal(4, schematic.paste(world, tiny(), 0, 0, 0).placed)
    end)

    it("passes other errors through unchanged", function()
      local world, s = fake_world(), tiny()
      local obj = {}
      local ok, err = pcall(schematic.paste, world, s, 0, 0, 0, { block_def = function() error(obj) end })
      assert.is_false(ok)
      assert.equal(obj, err)
      local line
      ok, err = pcall(schematic.paste, world, s, 0, 0, 0, { block_def = function()
        line = debug.getinfo(1, "l").currentline; error("no shapes today") end })
      assert.is_false(ok)
      assert.equal(debug.getinfo(1, "S").short_src .. ":" .. line .. ": no shapes today", err)
    end)
  end)

  describe("paste() into a blockphys world", function()
    local ok_bp, bp = pcall(require, "blockphys")
    if not ok_bp or type(bp) ~= "table" or not bp.World then
      pending("the blockphys core is not available: " .. tostring(bp):match("[^\n]*"))
      return
    end
    it("pastes the lobby with every state known", function()
      local world = bp.World()
      local schem = assert(schematic.load(LOBBY))
      local report = schematic.paste(world, schem, 100, 64, -50)
      assert.same({ placed = 2176, guessed = {} }, report)
      assert.equal(world:block_id("minecraft:sea_lantern"), world:get_block(126, 70, -27))
      assert.equal(world:block_id("minecraft:end_stone"), world:get_block(124, 64, -26))
      assert.equal(world:block_id("minecraft:purpur_stairs[facing=north,half=bottom,shape=straight]"),
        world:get_block(125, 78, -23))
      assert.equal(0, world:get_block(100, 64, -50))
      assert.equal(0, world:get_block(99, 64, -26))
    end)

    it("can paste twice, reusing block types", function()
      local world = bp.World()
      local schem = tiny()
      schematic.paste(world, schem, 0, 0, 0)
      local report = schematic.paste(world, schem, 0, 10, 0)
      assert.equal(4, report.placed)
      assert.equal(world:block_id("minecraft:stone"), world:get_block(1, 10, 0))
    end)

    it("raises on bad coordinates before touching the world", function()
      local world = bp.World()
      raises_here("bad argument #4 to 'paste' (number has no integer representation)",
        function() schematic.paste(world, tiny(), 0, 0.25, 0) end)
      assert.is_nil(world:block_id("minecraft:stone"))
    end)

    -- tiny()'s palette: stone, then the stairs, then the unknown frobnicator. A
    -- definition that World:define_block rejects raises before the first type is
    -- defined, whichever palette entry it belongs to.
    it("raises for a definition define_block rejects, with no type defined and no block set", function()
      local world = bp.World()
      local before = world:stats()
      local function rejecting(field, value)
        return { block_def = function(state)
          local def = bp.minecraft.block_def(state)
          if state:find("frobnicator", 1, true) then def[field] = value end
          return def, true
        end }
      end
      raises_here("bad argument #6 to 'paste' (block_def(\"minecraft:frobnicator[x=1]\"): "
        .. "slipperiness must be in [0, 1.5])",
        function() schematic.paste(world, tiny(), 0, 0, 0, rejecting("slipperiness", 5)) end)
      raises_here("bad argument #5 to 'paste' (block_def(\"minecraft:frobnicator[x=1]\"): "
        .. "unknown field 'colour')",
        function() world:paste(tiny(), 0, 0, 0, rejecting("colour", "red")) end)
      assert.same(before, world:stats())
      assert.is_nil(world:block_id("minecraft:stone"))
      -- the same definitions without the bad field paste
      assert.equal(4, schematic.paste(world, tiny(), 0, 0, 0, rejecting("liquid", nil)).placed)
    end)

    it("places what it checked, whatever the shape table's block_def changes meanwhile", function()
      local function hand_made()
        return { width = 2, height = 1, length = 1, cell_bytes = 1, blocks = "\1\1",
                 palette = { "minecraft:air", "minecraft:stone" } }
      end
      for _, change in ipairs{
        function(s) s.height = 2 end,                               -- blocks too short now
        function(s) s.cell_bytes = 9 end,                           -- no such cell size
        function(s) s.width, s.blocks = 4, "\1\1\1\1" end,          -- past int32 at x below
        function(s) s.palette[2] = "minecraft:oak_fence" end,       -- another state
      } do
        local world, s = bp.World(), hand_made()
        local shapes = { block_def = function(state)
          change(s)
          return bp.minecraft.block_def(state)
        end }
        local report = world:paste(s, 2 ^ 31 - 2, 0, 0, shapes)
        assert.equal(2, report.placed)
        local stone = world:block_id("minecraft:stone")
        assert.same({ stone, stone, 2 }, { world:get_block(2 ^ 31 - 2, 0, 0),
          world:get_block(2 ^ 31 - 1, 0, 0), world:stats().block_types })
      end
    end)

    it("bounds a palette length that __len answers (3-byte cells index at most 2^24 entries)", function()
      local world = bp.World()
      for _, len in ipairs{ 2 ^ 31, 2 ^ 24 + 1, 0.5, -1 } do
        local endless = setmetatable({}, { __index = function() return "minecraft:stone" end,
                                           __len = function() return len end })
        local s = { width = 1, height = 1, length = 1, cell_bytes = 1, blocks = "\0", palette = endless }
        raises_here("bad argument #1 to 'paste' (schematic palette length must be an integer in 0..16777216)",
          function() world:paste(s, 0, 0, 0) end)
      end
      assert.is_nil(world:block_id("minecraft:stone"))
    end)

    it("reads each definition once: one that answers differently each time is defined as first read", function()
      local reads = 0
      local shapes = { block_def = function(state)
        return setmetatable({}, { __index = function(_, k)
          if k == "name" then return state end
          if k == "boxes" then
            reads = reads + 1
            return reads == 1 and { { 0, 0, 0, 1, 0.5, 1 } } or { { 0, 0, 0, 5, 5, 5 } }
          end
        end }), true
      end }
      local world = bp.World()
      local s = { width = 1, height = 1, length = 1, cell_bytes = 1, blocks = "\0",
                  palette = { "minecraft:dirt" } }
      assert.equal(1, world:paste(s, 0, 0, 0, shapes).placed)
      assert.equal(1, reads)
      assert.same({ { 0, 0, 0, 1, 0.5, 1 } }, world:block_info("minecraft:dirt").boxes)
    end)

    it("names its own world argument when block_def destroys the world", function()
      local s = { width = 2, height = 1, length = 1, cell_bytes = 1, blocks = "\0\1",
                  palette = { "minecraft:stone", "minecraft:foo" } }
      local function destroying(w)
        return { block_def = function(state) w:destroy(); return { name = state } end }
      end
      local w1, w2 = bp.World(), bp.World()
      raises_here("bad argument #1 to 'paste' (world has been destroyed)",
        function() schematic.paste(w1, s, 0, 0, 0, destroying(w1)) end)
      raises_here("calling 'paste' on bad self (world has been destroyed)",
        function() w2:paste(s, 0, 0, 0, destroying(w2)) end)
    end)

    it("passes a length of boxes from __len on to define_block's own check", function()
      local s = { width = 1, height = 1, length = 1, cell_bytes = 1, blocks = "\1",
                  palette = { "minecraft:air", "minecraft:stone" } }
      for _, len in ipairs{ 1.5, -1, "x", {} } do
        local boxes = setmetatable({ { 0, 0, 0, 1, 1, 1 } }, { __len = function() return len end })
        local w = bp.World()
        local shapes = { block_def = function(state) return { name = state, boxes = boxes } end }
        raises_here("bad argument #6 to 'paste' (block_def(\"minecraft:stone\"): the length of "
          .. "boxes must be a non-negative integer)", function() schematic.paste(w, s, 0, 0, 0, shapes) end)
        assert.equal(1, w:stats().block_types)
      end
    end)

    it("passes a stand-in world's own errors on as they are", function()
      local s = { width = 1, height = 1, length = 1, cell_bytes = 1, blocks = "\0",
                  palette = { "minecraft:stone" } }
      local stand_in = {
        define_block = function() return 1 end, set_block = function() end,
        block_id = function() error("bad argument #1 to 'lookup' (db closed)", 0) end,
      }
      assert.same({ false, "bad argument #1 to 'lookup' (db closed)" },
        { pcall(schematic.paste, stand_in, s, 0, 0, 0) })
    end)

    it("pastes into a strict stand-in world whose other members raise", function()
      local world = fake_world()
      setmetatable(world, { __index = function(_, k) error("stand-in has no member " .. k) end })
      assert.equal(4, schematic.paste(world, tiny(), 0, 0, 0).placed) -- its 4 non-air cells
    end)

    it("inside a step hook, raises 'world is locked' at the hook's line and sets nothing", function()
      local world = bp.World()
      world:define_block{ name = "stone" }
      world:fill(-2, -1, -2, 2, -1, 2, "stone")
      local calls, line = {
        function() schematic.paste(world, tiny(), 10, 0, 0) end, -- new types: define_block raises
        function() world:paste(tiny(), 10, 0, 0) end,
      }, debug.getinfo(1, "l").currentline - 2
      local expect = "paste: world is locked: blocks, entities and colliders cannot be added or removed "
        .. "inside world:step (from a rules hook or filter)"
      for i, call in ipairs(calls) do
        local e = world:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.beta173{ jump = call } }
        e.jumping = true
        local ok, err = pcall(world.step, world)
        assert.is_false(ok)
        -- entity 1 both times: the removed entity's slot is reused
        assert.equal(("world:step: rules hook 'jump' of entity 1 failed: %s:%d: %s")
          :format(debug.getinfo(1, "S").short_src, line + i - 1, expect), err)
        world:remove(e)
      end
      assert.is_nil(world:block_id("minecraft:stone"))
      -- with every type defined, set_block is the first call that raises
      schematic.paste(world, tiny(), 20, 0, 0)
      local placed = world:stats().blocks
      local e = world:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.beta173{
        jump = function() world:paste(tiny(), 10, 0, 0) end } }
      e.jumping = true
      local _, err = pcall(world.step, world)
      assert.truthy(err:find(debug.getinfo(1, "S").short_src .. ":%d+: paste: world is locked"))
      assert.equal(placed, world:stats().blocks)
      -- a paste of air only, which defines and places nothing, meets the lock too
      local air = { width = 1, height = 1, length = 1, palette = { "minecraft:air" },
                    blocks = "\0", cell_bytes = 1, offset = { 0, 0, 0 } }
      e.rules.jump = function() world:paste(air, 10, 0, 0) end
      _, err = pcall(world.step, world)
      assert.truthy(err:find(debug.getinfo(1, "S").short_src .. ":%d+: paste: world is locked"))
    end)

    it("raises when the new types would pass the type limit, before defining any", function()
      local function filled(n)
        local world = bp.World()
        for i = 1, n do world:define_block { name = "filler" .. i } end
        return world
      end
      local world = filled(65533)
      local before = world:stats()
      assert.equal(65534, before.block_types) -- air and the fillers: two ids are left
      raises_here("bad argument #6 to 'paste' (3 new block types would exceed the world's 65536)",
        function() schematic.paste(world, tiny(), 0, 0, 0) end)
      assert.same(before, world:stats())
      -- with three ids left it pastes, and the world is full
      local full = filled(65532)
      assert.equal(4, schematic.paste(full, tiny(), 0, 0, 0).placed)
      assert.equal(65536, full:stats().block_types)
    end)
  end)

  -- Pins found by mutation testing: exact bounds, offsets and messages.
  describe("load() exact bounds and messages", function()
    local function states(n)
      local t = {}
      for i = 1, n do t[i] = "minecraft:s" .. (i - 1) end
      return t
    end
    local function mcedit(w, ids, metas, extra)
      return comp("Schematic", short("Width", w), short("Height", 1), short("Length", 1),
        bytes("Blocks", ids), extra or bytes("Data", metas))
    end

    it("index() returns nil just outside each bound", function()
      local s = assert(schematic.load(sponge2(2, 2, 2, { "minecraft:air", "minecraft:stone" },
        "\1\1\1\1\1\1\1\1")))
      assert.is_nil(s:index(-1, 0, 0))
      assert.is_nil(s:index(0, 0, 2))
      assert.equal(2, s:index(1, 1, 1))
    end)

    it("reads negative Shorts as unsigned but rejects Ints outside 0..65535", function()
      -- Pins `v >= -32768` and both halves of the range check.
      fails(sponge2(1, 1, 1, { "minecraft:air" }, "\0", { Width = int("Width", -40000) }),
        "schematic: Width -40000 out of range 0..65535")
      fails(sponge2(1, 1, 1, { "minecraft:air" }, "\0", { Width = int("Width", 65536) }),
        "schematic: Width 65536 out of range 0..65535")
    end)

    it("rejects an Offset that is a list, not an int array", function()
      local offset = tag(9, "Offset", pack(">i1i4i4i4i4", 3, 3, 1, 2, 3))
      fails(sponge2(1, 1, 1, { "minecraft:air" }, "\0", { Offset = offset }),
        "schematic: invalid Offset (expected an int array of 3)")
    end)

    it("rejects palette indices that are floats or just out of range", function()
      local pal = comp("Palette", int("minecraft:air", 0), tag(6, "minecraft:stone", pack(">d", 1)))
      if C.INTEGERS then -- a Double of 1.0 is the integer 1 where numbers are doubles
        fails(sponge2(1, 1, 1, {}, "\0", { Palette = pal }),
          'schematic: Palette entry "minecraft:stone" has a non-integer index')
      end
      pal = comp("Palette", int("minecraft:air", 0), int("minecraft:stone", 65536))
      fails(sponge2(1, 1, 1, {}, "\0", { Palette = pal }),
        'schematic: Palette index 65536 of "minecraft:stone" out of range 0..65535')
      pal = comp("Palette", int("minecraft:air", 0), int("minecraft:stone", 65535))
      assert.equal(65536, #assert(schematic.load(sponge2(1, 1, 1, {}, "\0", { Palette = pal }))).palette)
      pal = comp("Palette", int("minecraft:air", 0), int("minecraft:stone", -1))
      fails(sponge2(1, 1, 1, {}, "\0", { Palette = pal }),
        'schematic: Palette index -1 of "minecraft:stone" out of range 0..65535')
    end)

    it("ignores a DataVersion that is not an integer", function()
      local s = assert(schematic.load(sponge2(1, 1, 1, { "minecraft:air" }, "\0",
        { DataVersion = str("DataVersion", "x") })))
      assert.is_nil(s.data_version)
    end)

    it("checks the BlockData size before the palette", function()
      -- Pins the early size check in parse_sponge (sponge_cells repeats it).
      fails(sponge2(2, 1, 1, {}, "\0", { Palette = comp("Palette") }),
        "schematic: BlockData too short: 2 cells need at least 2 bytes, got 1")
    end)

    it("rejects a v3 Blocks that is not a compound", function()
      local doc = comp("", comp("Schematic", int("Version", 3),
        short("Width", 1), short("Height", 1), short("Length", 1), str("Blocks", "x")))
      fails(doc, "schematic: missing or invalid Blocks")
    end)

    it("applies max_bytes inclusively to raw and gzipped documents", function()
      local doc = sponge2(1, 1, 1, { "minecraft:air" }, "\0")
      assert.is_table(schematic.load(doc, { max_bytes = #doc }))
      fails(doc, "schematic: data exceeds " .. (#doc - 1) .. " bytes", { max_bytes = #doc - 1 })
      assert.is_table(schematic.load(gzip(doc), { max_bytes = #doc }))
      fails(gzip(doc), "schematic: decompressed data exceeds " .. (#doc - 1) .. " bytes",
        { max_bytes = #doc - 1 })
    end)

    it("reports an index equal to the palette size, and the largest 32-bit varint, as out of range", function()
      -- Pins `v >= npal`, the fast path's last allowed byte, and `> 0x7FFFFFFF`.
      fails(sponge2(1, 1, 1, { "minecraft:air", "minecraft:stone" }, "\2"),
        "schematic: BlockData cell 0: palette index 2 out of range (palette has 2 entries)")
      fails(sponge2(1, 1, 1, { "minecraft:air" }, varints({ 0x7FFFFFFF })),
        "schematic: BlockData cell 0: palette index 2147483647 out of range (palette has 1 entries)")
    end)

    it("rejects exactly one byte after the last cell", function()
      fails(sponge2(1, 1, 1, { "minecraft:air" }, "\0\0"),
        "schematic: BlockData has 1 bytes after the last of 1 cells")
    end)

    it("does not read a 129-entry palette's two-byte varint as two cells", function()
      -- Pins the fast path's `npal > 128` limit.
      fails(sponge2(2, 1, 1, states(129), "\128\1"),
        "schematic: BlockData too short: ends after 1 of 2 cells")
    end)

    it("loads palettes whose last index byte is '%' or ']' and counts punctuation air", function()
      -- 38 entries: the last index is 37 ('%'), air there too; 94: the last
      -- index is 93 (']'), air at 46 ('.', which unescaped matches any byte).
      for _, c in ipairs({ { 38, 37, 1 }, { 94, 46, 2 } }) do
        local n, a, nonair = c[1], c[2], c[3]
        local st = states(n)
        st[a + 1] = "minecraft:air"
        local s = assert(schematic.load(sponge2(3, 1, 1, st, string.char(n - 1, a, 0))))
        assert.equal(st[n], s:get(0, 0, 0))
        assert.equal("minecraft:air", s:get(1, 0, 0))
        assert.equal(nonair, s.count_nonair)
      end
    end)

    it("decodes more than 200 cells and a last chunk of one cell on the varint path", function()
      -- Pins pack_cells' 200-cell slices (one and two bytes per cell) and
      -- the flush of a final partial chunk of exactly one cell.
      for _, npal in ipairs({ 200, 300 }) do
        local n = 4097
        local list = {}
        for i = 1, n do list[i] = (i * 7) % npal end
        local st = states(npal)
        st[1] = "minecraft:air" -- also pins count_nonair's `+ 1` for wide cells
        local air = 0
        for i = 1, n do if list[i] == 0 then air = air + 1 end end
        local s = assert(schematic.load(sponge2(n, 1, 1, st, varints(list))))
        assert.equal(n - air, s.count_nonair)
        assert.equal(npal > 256 and 2 or 1, s.cell_bytes)
        assert.equal(#s.blocks, n * s.cell_bytes)
        for x = 0, n - 1, 97 do assert.equal(list[x + 1] + 1, s:index(x, 0, 0)) end
        assert.equal(list[n] + 1, s:index(n - 1, 0, 0))
      end
    end)

    it("keeps MCEdit ids and metadata apart (stone:0 vs air:15)", function()
      -- Pins the id * 16 + meta cache key.
      local s = assert(schematic.load(mcedit(2, "\1\0", "\0\15")))
      assert.equal("minecraft:stone", s:get(0, 0, 0))
      assert.equal("minecraft:air", s:get(1, 0, 0))
    end)

    it("accepts a short AddBlocks and rejects bad MCEdit arrays", function()
      local s = assert(schematic.load(mcedit(3, "\1\1\1", "\0\0\0", bytes("AddBlocks", "") ..
        bytes("Data", "\0\0\0"))))
      assert.equal("minecraft:stone", s:get(2, 0, 0))
      fails(mcedit(1, "\1", nil, int("Other", 0)), "schematic: missing or invalid Data")
      fails(mcedit(1, "\1", nil, int("AddBlocks", 1) .. bytes("Data", "\0")), "schematic: invalid AddBlocks")
      fails(mcedit(2, "\1\1", "\0"), "schematic: Data too short: 2 cells, got 1 bytes")
    end)

    it("rejects an out-of-range byte when the palette's last index is ']'", function()
      -- Pins the fast path's `last == "]"` fallback ("[^\0-]]" misparses).
      fails(sponge2(1, 1, 1, states(94), "\100"),
        "schematic: BlockData cell 0: palette index 100 out of range (palette has 94 entries)")
    end)

    it("pins version, root and max_bytes edge cases", function()
      fails(sponge2(1, 1, 1, { "minecraft:air" }, "\0", { Version = int("Version", 0) }),
        "schematic: unsupported Sponge schematic version 0")
      -- A top-level "Schematic" that is not a compound is an ordinary tag.
      local s = assert(schematic.load(sponge2(1, 1, 1, { "minecraft:air" }, "\0",
        { PaletteMax = int("Schematic", 1) })))
      assert.equal("sponge2", s.format)
      fails(comp("Schematic", int("Blocks", 1)),
        'schematic: not a schematic: root "Schematic" has no Version, Blocks, Regions or size and blocks')
      -- max_bytes = 0 is a valid (if useless) limit.
      fails(sponge2(1, 1, 1, { "minecraft:air" }, "\0"), "schematic: data exceeds 0 bytes",
        { max_bytes = 0 })
    end)

    it("paste() checks a hand-built schematic's size, blocks and indices exactly", function()
      -- Pins `v < 0`, the `~=` size match and the `npal < 256 ^ nb` scan guard.
      local world = { define_block = function() end, block_id = function() end,
        set_block = function() end }
      local function hand(w, blocks, pal)
        return { width = w, height = 1, length = 1, cell_bytes = 1, blocks = blocks, palette = pal }
      end
      assert.has_error(function() schematic.paste(world, hand(-1, "", { "minecraft:air" }), 0, 0, 0) end,
        "bad argument #2 to 'paste' (schematic has no valid width)")
      assert.has_error(function() schematic.paste(world, hand(1, "\0\0", { "minecraft:air" }), 0, 0, 0) end,
        "bad argument #2 to 'paste' (schematic blocks do not match its size)")
      local pal = {}
      for i = 1, 255 do pal[i] = "minecraft:air" end
      assert.has_error(function() schematic.paste(world, hand(1, "\255", pal), 0, 0, 0) end,
        "bad argument #2 to 'paste' (schematic cell 0: palette index 255 out of range (palette has 255 entries))")
    end)

    it("reads a file as it goes: gzip inflated as read, raw NBT only up to max_bytes", function()
      local path = os.tmpname()
      local function write(data)
        local f = assert(io.open(path, "wb"))
        f:write(data)
        f:close()
      end
      -- An incompressible document stored by zlib (level 0): the file is larger than
      -- the document, and still loads from its path within the document's own size.
      local noise, x = {}, 12345
      for i = 1, 100000 do
        x = (C.mul32(x, 1103515245) + 12345) % 2147483648
        noise[i] = string.char(math.floor(x / 65536) % 256) -- x >> 16 & 0xFF
      end
      local doc = sponge2(1, 1, 1, { "minecraft:air" }, "\0",
        { Offset = bytes("Noise", table.concat(noise)) })
      write(zlib.deflate(0, 31)(doc, "finish"))
      local size = #assert(read(path))
      assert.is_true(size > #doc)
      assert(schematic.load(path, { max_bytes = #doc }))
      fails(path, "schematic: decompressed data exceeds " .. (#doc - 1) .. " bytes",
        { max_bytes = #doc - 1 })
      -- A gzip header may carry a comment of any length: the bound is the document's.
      local raw_deflate = zlib.deflate(6, -15)(doc, "finish")
      local header = "\31\139\8\16\0\0\0\0\0\255" .. string.rep("c", 5000) .. "\0"
      write(header .. raw_deflate .. C.pack("<I4I4", zlib.crc32()(doc), #doc))
      assert(schematic.load(path, { max_bytes = #doc }))
      -- A 64 MiB sparse file of raw NBT is refused after its first megabyte.
      local f = assert(io.open(path, "wb"))
      f:write("\10")
      f:seek("set", 64 * 1024 * 1024)
      f:write("\0")
      f:close()
      fails(path, "schematic: data exceeds 1000 bytes", { max_bytes = 1000 })
      os.remove(path)
    end)

    it("paste() refuses extents whose product wraps around, and changes nothing", function()
      -- maxinteger^2 wraps to 1 in integer arithmetic, so the size check once passed
      -- and the paste placed blocks before failing (or in the wrong shape).
      local bp = require "blockphys"
      local w = bp.World()
      local M = C.MAXINT -- math.maxinteger (2^53 where numbers are doubles)
      local P31, P32 = 2147483648, 4294967296 -- 1 << 31, 1 << 32
      local function hand(wd, h, l, nb, blocks)
        return { width = wd, height = h, length = l, cell_bytes = nb, blocks = blocks,
          palette = { "minecraft:stone" } }
      end
      assert.has_error(function() w:paste(hand(M, 1, M, 2, "\0\0"), 2, 0, 2) end,
        "bad argument #1 to 'paste' (schematic has no valid width)")
      assert.has_error(function() w:paste(hand(1, 3, P32 + 1, 1, "\0\0\0"), 2, 0, 2) end,
        "bad argument #1 to 'paste' (schematic has no valid length)")
      assert.has_error(function() w:paste(hand(P32, P32, P31, 1, "\0"), 2, 0, 2) end,
        "bad argument #1 to 'paste' (schematic blocks do not match its size)")
      assert.has_error(function() w:paste(hand(P32, 1, 1, 1, "\0"), 2, 0, 2) end,
        "bad argument #1 to 'paste' (schematic blocks do not match its size)")
      -- 2^32 * 2^32 wraps to exactly #blocks (0) in integers; each extent fits the range
      assert.has_error(function() w:paste(hand(P32, 1, P32, 1, ""), -P31, 0, -P31) end,
        "bad argument #1 to 'paste' (schematic blocks do not match its size)")
      assert.equal(0, w:get_block(2, 0, 2))
      assert.equal(1, w:stats().block_types)
      local placed = w:paste(hand(1, 3, 1, 1, "\0\0\0"), 2, 0, 2)
      assert.equal(3, placed.placed)
      assert.equal(w:block_id("minecraft:stone"), w:get_block(2, 2, 2))
      -- a box with no cells places nothing, at once, whatever its other extents
      for nb = 1, 3 do
        assert.same({ placed = 0, guessed = {} }, w:paste(hand(0, P31, P31, nb, ""), 0, 0, 0))
      end
    end)

    -- docs/schematics.md "Loading": a path is read as gzip or as raw NBT; end of file is the
    -- end of the data, not an error.
    it("loads an uncompressed NBT file from its path, read in pieces to its end", function()
      local path = os.tmpname()
      -- past one 16 KiB first piece, so the rest comes from further reads
      local doc = sponge2(1, 1, 1, { "minecraft:stone" }, "\0",
        { Offset = bytes("Pad", string.rep("p", 40000)) })
      local f = assert(io.open(path, "wb"))
      f:write(doc)
      f:close()
      local s, err = schematic.load(path)
      os.remove(path)
      assert(s, err)
      assert.equal("minecraft:stone", s:get(0, 0, 0))
    end)

    -- A read that fails after the first piece (an I/O error mid-file) is reported as such,
    -- not as data that ends early.
    it("reports a read error in the middle of a file, gzip or raw", function()
      local doc = sponge2(1, 1, 1, { "minecraft:stone" }, "\0")
      local real_open = io.open
      local function failing_after(data, first)
        local reads = 0
        return { close = function() end, read = function(_, n)
          reads = reads + 1
          if reads == 1 then return data:sub(1, math.min(n, first)) end
          return nil, "Input/output error", 5
        end }
      end
      local function load_faked(data, first)
        rawset(io, "open", function(p, m) -- rawset: io is a standard library table
          if p == "fake.schem" then return failing_after(data, first) end
          return real_open(p, m)
        end)
        local ok, res, err = pcall(schematic.load, "fake.schem")
        rawset(io, "open", real_open)
        assert.is_true(ok, tostring(res))
        return res, err
      end
      local want = "schematic: cannot read file: fake.schem: Input/output error"
      assert.same({ nil, want }, { load_faked(gzip(doc), 12) }) -- only the gzip header comes
      assert.same({ nil, want }, { load_faked(doc, 12) })
    end)

    -- A file that was opened is closed again, whether it loads or not.
    it("closes the file it read, loaded or refused", function()
      local path = os.tmpname()
      finally(function() os.remove(path) end)
      local real_open = io.open
      local function load_counting(data)
        local f = assert(real_open(path, "wb"))
        f:write(data)
        f:close()
        local closed = 0
        rawset(io, "open", function(p, m)
          if p ~= path then return real_open(p, m) end
          local real = assert(real_open(p, m))
          return { read = function(_, n) return real:read(n) end,
                   close = function() closed = closed + 1; return real:close() end }
        end)
        local ok, res = pcall(schematic.load, path)
        rawset(io, "open", real_open)
        assert.is_true(ok, tostring(res))
        return res, closed
      end
      local s, closed = load_counting(sponge2(1, 1, 1, { "minecraft:stone" }, "\0"))
      assert.is_table(s)
      assert.equal(1, closed)
      s, closed = load_counting("not a schematic")
      assert.is_nil(s)
      assert.equal(1, closed)
    end)

    it("completes MCEdit doors only from halves inside the schematic, uncached", function()
      -- Pins `yy < 0 or yy >= h` in the meta_at callback and the DOOR_IDS
      -- exception to the (id, meta) cache.
      local function doors(w, h, ids, metas)
        return comp("Schematic", short("Width", w), short("Height", h), short("Length", 1),
          bytes("Blocks", ids), bytes("Data", metas))
      end
      local s = assert(schematic.load(doors(1, 1, "\64", "\1")))
      assert.equal("minecraft:oak_door[facing=south,half=lower,hinge=left,open=false]", s:get(0, 0, 0))
      s = assert(schematic.load(doors(1, 1, "\64", "\8"))) -- no lower half: BlockDoor's defaults
      assert.equal("minecraft:oak_door[facing=north,half=upper,hinge=left,open=false]", s:get(0, 0, 0))
      -- Same id and metadata below, different hinges above.
      s = assert(schematic.load(doors(2, 2, "\64\64\64\64", "\1\1\8\9")))
      assert.equal("minecraft:oak_door[facing=south,half=lower,hinge=left,open=false]", s:get(0, 0, 0))
      assert.equal("minecraft:oak_door[facing=south,half=lower,hinge=right,open=false]", s:get(1, 0, 0))
    end)

    -- The check of "completes MCEdit doors only from halves inside the schematic,
    -- uncached" for every legacy door id: 64, 71, 193..197.
    it("completes every kind of legacy door from its own upper half, uncached", function()
      for _, id in ipairs{ 64, 71, 193, 194, 195, 196, 197 } do
        local c = string.char(id)
        local s = assert(schematic.load(comp("Schematic", short("Width", 2), short("Height", 2),
          short("Length", 1), bytes("Blocks", c:rep(4)), bytes("Data", "\1\1\8\9"))))
        assert.matches("_door%[facing=south,half=lower,hinge=left,open=false%]$", s:get(0, 0, 0))
        assert.matches("_door%[facing=south,half=lower,hinge=right,open=false%]$", s:get(1, 0, 0))
      end
    end)

    it("paste() accepts coordinates at both ends of the int32 range", function()
      -- Pins `<` / `>` against INT32_MIN / INT32_MAX and the `extent - 1`.
      local world = { define_block = function() end, block_id = function() end,
        set_block = function() end }
      local air = { width = 1, height = 1, length = 1, cell_bytes = 1, blocks = "\0",
        palette = { "minecraft:air" } }
      assert.same({ placed = 0, guessed = {} }, schematic.paste(world, air, -2147483648, 0, 0))
      assert.same({ placed = 0, guessed = {} }, schematic.paste(world, air, 2147483647, 0, 0))
      assert.has_error(function() schematic.paste(world, air, 2147483648, 0, 0) end,
        "bad argument #3 to 'paste' (block coordinate out of the int32 range)")
    end)

    it("paste() reports each guessed state once, namespaced and sorted", function()
      -- Pins `known == false` (nil is not a guess), the `seen` dedup, the
      -- "minecraft:" default namespace and the sort of `guessed`.
      local shapes = { block_def = function(state)
        local known = false
        if state == "minecraft:known" then known = nil end
        return { name = "custom:" .. state, boxes = {} }, known
      end }
      local schem = { width = 5, height = 1, length = 1, cell_bytes = 1, blocks = "\0\1\2\3\4",
        palette = { "minecraft:air", "zeta[a=1]", "zeta[a=2]", "alpha", "minecraft:known" } }
      local report = schematic.paste(fake_world(), schem, 0, 0, 0, shapes)
      assert.same({ placed = 4, guessed = { "minecraft:alpha", "minecraft:zeta" } }, report)
    end)

    it("paste() skips air cells even when air is not the first palette entry", function()
      -- Pins the lookup of air cells to no id (not some other entry's).
      local world = fake_world()
      local schem = { width = 2, height = 1, length = 1, cell_bytes = 1, blocks = "\1\0",
        palette = { "minecraft:stone", "minecraft:air" } }
      assert.same({ placed = 1, guessed = {} }, schematic.paste(world, schem, 0, 0, 0))
      assert.equal(1, world.calls)
      assert.is_nil(world.cells["0,0,0"])
    end)

    it("stores one byte per cell for exactly 256 palette entries", function()
      -- Pins `npal <= 256` in cell_bytes_for.
      local s = assert(schematic.load(sponge2(2, 1, 1, states(256), varints({ 255, 0 }))))
      assert.equal(1, s.cell_bytes)
      assert.equal("minecraft:s255", s:get(0, 0, 0))
    end)

    it("tries strings of up to 4096 bytes as paths, and longer ones only as data", function()
      -- Pins `#src <= 4096` in input_bytes.
      fails(string.rep("a", 4097), "schematic: not a schematic (expected gzip or NBT data)")
      fails_matching(string.rep("a", 4096), "^schematic: cannot open file: ")
    end)
  end)
end)
