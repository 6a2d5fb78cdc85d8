-- luacheck: std +busted
-- Outline shapes for cursors: define_block's `outline` (checked as boxes are, given
-- back by block_info), world:raycast with `{ shape = "outline" }` picking blocks that
-- have no collision (a flower, a wall torch), `{ liquids = true }` and the liquid's
-- surface, the options' errors, and the outlines bp.minecraft.block_def and its Beta
-- 1.7.3 table fill in (pasted maps get them). Source: our own; the shapes: the
-- modules' named sources.
local bp = require "blockphys"

local function px(a, b, c, d, e, f) return { a / 16, b / 16, c / 16, d / 16, e / 16, f / 16 } end

describe("outline shapes", function()
  describe("define_block's outline", function()
    it("defaults to the collision boxes and is given back by block_info", function()
      local w = bp.World()
      w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
      assert.same({ { 0, 0, 0, 1, 0.5, 1 } }, w:block_info("slab").outline)
      w:define_block{ name = "flower", boxes = {}, outline = { px(5, 0, 5, 11, 10, 11) } }
      local info = w:block_info("flower")
      assert.same({}, info.boxes)
      assert.same({ px(5, 0, 5, 11, 10, 11) }, info.outline)
      w:define_block{ name = "ghost", outline = {} }
      assert.same({}, w:block_info("ghost").outline)
      assert.same({ { 0, 0, 0, 1, 1, 1 } }, w:block_info("ghost").boxes)
    end)

    it("checks the outline as it checks boxes, and defines nothing then", function()
      local w = bp.World()
      local cases = {
        { 3, "define_block: field 'outline' must be a table of boxes" },
        { { 7 }, "define_block: outline[1] must be a table {x1,y1,z1,x2,y2,z2}" },
        { { { 0, 0, 0, 1, 1, "1" } }, "define_block: outline[1][6] must be a finite number" },
        { { { 0, 0, 0, 1, 1, 0 / 0 } }, "define_block: outline[1][6] must be a finite number" },
        { { { 0, 0, 0, 2, 1, 1 } },
          "define_block: outline box leaves its cell on X or Z (coordinates must be in [0, 1])" },
        { { { 0, 0, 0, 1, 2.5, 1 } },
          "define_block: outline box Y must be in [0, 2] (at most one block above the cell)" },
        { { { 0, 1, 0, 1, 0, 1 } }, "define_block: outline box has min > max (or NaN)" },
      }
      for _, c in ipairs(cases) do
        local ok, err = pcall(w.define_block, w, { name = "x", outline = c[1] })
        assert.is_false(ok)
        assert.equal(c[2], err:match("define_block: .*"))
      end
      local many = {}
      for i = 1, 65 do many[i] = { 0, 0, 0, 1, 1, 1 } end
      local ok, err = pcall(w.define_block, w, { name = "x", outline = many })
      assert.is_false(ok)
      assert.equal("define_block: too many outline boxes (at most 64)", err:match("define_block: .*"))
      assert.is_nil(w:block_id("x"))
      assert.equal(1, w:stats().block_types)
    end)
  end)

  describe("world:raycast with options", function()
    local w
    before_each(function()
      w = bp.World()
      w:define_block(bp.minecraft.block_def("minecraft:poppy"))
      w:define_block(bp.minecraft.block_def("minecraft:wall_torch[facing=east]"))
      w:set_block(0, 0, 0, "minecraft:poppy")
      w:set_block(2, 0, 0, "minecraft:wall_torch[facing=east]")
    end)

    it("picks a flower by its outline; a collision ray passes through it", function()
      assert.is_nil(w:raycast(0.5, 2, 0.5, 0, -1, 0, 5))
      assert.is_nil(w:raycast(0.5, 2, 0.5, 0, -1, 0, 5, { shape = "collision" }))
      local h = w:raycast(0.5, 2, 0.5, 0, -1, 0, 5, { shape = "outline" })
      assert.same({ x = 0, y = 0, z = 0, id = w:block_id("minecraft:poppy"), nx = 0, ny = 1, nz = 0,
        hx = 0.5, hy = 0.625, hz = 0.5, distance = 1.375 }, h)
      -- beside the stem (x = 0.3 < 5/16) the ray misses
      assert.is_nil(w:raycast(0.3, 2, 0.5, 0, -1, 0, 5, { shape = "outline" }))
    end)

    it("picks a wall torch by the face of its outline", function()
      local h = w:raycast(3.5, 0.5, 0.5, -1, 0, 0, 5, { shape = "outline" })
      assert.equal(w:block_id("minecraft:wall_torch[facing=east]"), h.id)
      assert.same({ 2, 0, 0, 1, 0, 0 }, { h.x, h.y, h.z, h.nx, h.ny, h.nz })
      assert.equal(2.3125, h.hx)
      assert.equal(1.1875, h.distance)
      -- above the torch (y 0.8125 and up) the ray goes on to the flower's cell and misses
      assert.is_nil(w:raycast(3.5, 0.9, 0.5, -1, 0, 0, 5, { shape = "outline" }))
    end)

    it("selects liquids with liquids = true: the cell up to the liquid's surface", function()
      w:define_block{ name = "water", liquid = "water" }
      w:define_block{ name = "water3", liquid = "water", level = 3 }
      w:define_block{ name = "stone" }
      w:set_block(0, 0, 5, "water")
      w:set_block(1, 0, 5, "water3")
      w:set_block(2, 0, 5, "water")
      w:set_block(2, 1, 5, "water")
      w:set_block(0, -1, 5, "stone")
      -- without the option the ray goes through the water to the stone below
      local h = w:raycast(0.5, 3, 5.5, 0, -1, 0, 5)
      assert.same({ 0, -1, 1, 3 }, { h.x, h.y, h.ny, h.distance })
      h = w:raycast(0.5, 3, 5.5, 0, -1, 0, 5, { liquids = true })
      assert.same({ 0, 0, 5, w:block_id("water"), 1 }, { h.x, h.y, h.z, h.id, h.ny })
      assert.equal(8 / 9, h.hy)
      assert.equal(3 - 8 / 9, h.distance)
      h = w:raycast(1.5, 3, 5.5, 0, -1, 0, 5, { liquids = true, shape = "outline" })
      assert.same({ 1, 0, w:block_id("water3") }, { h.x, h.y, h.id })
      assert.equal(5 / 9, h.hy)
      -- a liquid under the same liquid fills its cell: the ray meets the upper one first
      h = w:raycast(2.5, 3, 5.5, 0, -1, 0, 5, { liquids = true })
      assert.same({ 2, 1, 1 + 8 / 9 }, { h.x, h.y, h.hy })
      h = w:raycast(2.5, 0.5, 4.5, 0, 0, 1, 5, { liquids = true })
      assert.same({ 2, 0, 5, -1, 5 }, { h.x, h.y, h.hz, h.nz, h.z })
    end)

    it("lets static colliders count in every mode", function()
      w:add_collider(bp.Collider(0, 0.5, 0, 1, 0.75, 1))
      local h = w:raycast(0.5, 2, 0.5, 0, -1, 0, 5, { shape = "outline" })
      assert.is_true(h.collider)
      assert.equal(0.75, h.hy)
    end)

    it("checks the options table", function()
      local cases = {
        { "outline", "bad argument #8 to 'raycast' (table expected, got string)" },
        { { shape = "box" }, "raycast: field 'shape' must be \"collision\" or \"outline\"" },
        { { shape = 1 }, "raycast: field 'shape' must be \"collision\" or \"outline\"" },
        { { liquids = 1 }, "raycast: field 'liquids' must be a boolean" },
        { { liquid = true, zz = 1 }, "raycast: unknown field 'liquid'" },
        { { [1] = true }, "raycast: unknown field '1'" },
      }
      for _, c in ipairs(cases) do
        -- no tail call: LuaJIT would lose the function's name
        local ok, err = pcall(function() w:raycast(0.5, 2, 0.5, 0, -1, 0, 5, c[1]) end)
        assert.is_false(ok)
        assert.is_truthy(err:find(c[2], 1, true), err)
      end
      -- a world the options' metamethods destroyed is reported, not read
      local opts = setmetatable({}, { __index = function() w:destroy() end })
      local ok, err = pcall(w.raycast, w, 0.5, 2, 0.5, 0, -1, 0, 5, opts)
      assert.is_false(ok)
      assert.is_truthy(err:find("destroyed", 1, true), err)
    end)
  end)

  describe("bp.minecraft.block_def", function()
    local mc = bp.minecraft

    it("gives blocks without collision the outline of today's game, named by what changes it", function()
      local cases = {
        { "minecraft:poppy", "minecraft:poppy", px(5, 0, 5, 11, 10, 11) },
        { "minecraft:short_grass", "minecraft:short_grass", px(2, 0, 2, 14, 13, 14) },
        { "minecraft:oak_sapling[stage=1]", "minecraft:oak_sapling", px(2, 0, 2, 14, 12, 14) },
        { "minecraft:tall_grass[half=upper]", "minecraft:tall_grass", { 0, 0, 0, 1, 1, 1 } },
        { "minecraft:torch", "minecraft:torch", px(6, 0, 6, 10, 10, 10) },
        { "minecraft:wall_torch[facing=north]", "minecraft:wall_torch[facing=north]", px(5.5, 3, 11, 10.5, 13, 16) },
        { "minecraft:wall_torch[facing=east]", "minecraft:wall_torch[facing=east]", px(0, 3, 5.5, 5, 13, 10.5) },
        { "minecraft:wall_torch[facing=south]", "minecraft:wall_torch[facing=south]", px(5.5, 3, 0, 10.5, 13, 5) },
        { "minecraft:wall_torch[facing=west]", "minecraft:wall_torch[facing=west]", px(11, 3, 5.5, 16, 13, 10.5) },
        { "minecraft:rail[shape=east_west]", "minecraft:rail[shape=east_west]", px(0, 0, 0, 16, 2, 16) },
        { "minecraft:powered_rail[powered=true,shape=ascending_north]",
          "minecraft:powered_rail[shape=ascending_north]", px(0, 0, 0, 16, 8, 16) },
        { "minecraft:stone_button[face=wall,facing=north,powered=false]",
          "minecraft:stone_button[face=wall,facing=north,powered=false]", px(5, 6, 14, 11, 10, 16) },
        { "minecraft:oak_button[face=wall,facing=east,powered=true]",
          "minecraft:oak_button[face=wall,facing=east,powered=true]", px(0, 6, 5, 1, 10, 11) },
        { "minecraft:stone_button[face=floor,facing=north]",
          "minecraft:stone_button[face=floor,facing=north,powered=false]", px(5, 0, 6, 11, 2, 10) },
        { "minecraft:stone_button[face=floor,facing=west]",
          "minecraft:stone_button[face=floor,facing=west,powered=false]", px(6, 0, 5, 10, 2, 11) },
        { "minecraft:stone_button[face=ceiling,facing=south,powered=true]",
          "minecraft:stone_button[face=ceiling,facing=south,powered=true]", px(5, 15, 6, 11, 16, 10) },
        { "minecraft:lever[face=floor,facing=east,powered=true]", "minecraft:lever[face=floor,facing=east]",
          px(4, 0, 5, 12, 6, 11) },
        { "minecraft:oak_pressure_plate[powered=true]", "minecraft:oak_pressure_plate[powered=true]",
          px(1, 0, 1, 15, 0.5, 15) },
        { "minecraft:heavy_weighted_pressure_plate[power=0]", "minecraft:heavy_weighted_pressure_plate[power=0]",
          px(1, 0, 1, 15, 1, 15) },
        { "minecraft:wheat[age=3]", "minecraft:wheat[age=3]", px(0, 0, 0, 16, 8, 16) },
        { "minecraft:oak_wall_sign[facing=south]", "minecraft:oak_wall_sign[facing=south]",
          px(0, 4.5, 0, 16, 12.5, 2) },
      }
      for _, c in ipairs(cases) do
        local def, known = mc.block_def(c[1])
        assert.is_true(known, c[1])
        assert.same({}, def.boxes, c[1])
        assert.equal(c[2], def.name)
        assert.same({ c[3] }, def.outline, c[1])
      end
      local wire = mc.block_def("minecraft:redstone_wire[north=up,east=side,power=3]")
      assert.equal("minecraft:redstone_wire[east=side,north=up,south=none,west=none]", wire.name)
      assert.same({ px(3, 0, 3, 13, 1, 13), px(13, 0, 3, 16, 1, 13), px(3, 0, 0, 13, 1, 3),
        px(3, 0, 0, 13, 16, 1) }, wire.outline)
    end)

    it("leaves blocks with collision to their boxes, and liquids without an outline", function()
      assert.is_nil(mc.block_def("minecraft:stone").outline)
      assert.is_nil(mc.block_def("minecraft:oak_slab[type=bottom]").outline)
      assert.is_nil(mc.block_def("minecraft:water").outline)
      assert.is_nil(mc.block_def("minecraft:cobweb").outline)
    end)

    it("has Beta 1.7.3's bounds where they differ, named @beta173", function()
      local beta = mc.beta173
      local def = beta.block_def("minecraft:poppy")
      assert.equal("minecraft:poppy@beta173", def.name)
      assert.same({ { 0.30000001192092896, 0, 0.30000001192092896, 0.699999988079071,
        0.6000000238418579, 0.699999988079071 } }, def.outline)
      def = beta.block_def("minecraft:wall_torch[facing=east]")
      assert.equal("minecraft:wall_torch[facing=east]@beta173", def.name)
      assert.same({ { 0, 0.20000000298023224, 0.3499999940395355, 0.30000001192092896,
        0.800000011920929, 0.6499999761581421 } }, def.outline)
      def = beta.block_def("minecraft:stone_button[face=wall,facing=east,powered=true]")
      assert.same({ { 0, 0.375, 0.3125, 0.0625, 0.625, 0.6875 } }, def.outline)
      def = beta.block_def("minecraft:rail[shape=ascending_east]")
      assert.same({ { 0, 0, 0, 1, 0.625, 1 } }, def.outline)
      -- the same as today's, or not in Beta: today's definition, today's name
      assert.same(mc.block_def("minecraft:oak_pressure_plate"), beta.block_def("minecraft:oak_pressure_plate"))
      assert.same(mc.block_def("minecraft:cornflower"), beta.block_def("minecraft:cornflower"))
      assert.same(mc.block_def("minecraft:stone_button[face=floor]"),
        beta.block_def("minecraft:stone_button[face=floor]"))
    end)

    it("defines and pastes: every outline passes define_block", function()
      local w = bp.World()
      for _, shapes in ipairs({ mc, mc.beta173 }) do
        for _, s in ipairs({ "minecraft:poppy", "minecraft:wall_torch[facing=west]", "minecraft:lever[face=ceiling]",
          "minecraft:redstone_wire[north=up,south=up,east=up,west=up]", "minecraft:oak_sign[rotation=3]" }) do
          local def = shapes.block_def(s)
          if not w:block_id(def.name) then w:define_block(def) end
          assert.same(def.outline, w:block_info(def.name).outline)
        end
      end
    end)
  end)
end)
