-- luacheck: std +busted
-- Specs for blockphys.minecraft: exact collision boxes for each block family.
-- Expected values are written out by hand in sixteenths, independently of
-- the module's rotation helpers.

local minecraft = require "blockphys.minecraft"

local function px(x1, y1, z1, x2, y2, z2)
  return { x1 / 16, y1 / 16, z1 / 16, x2 / 16, y2 / 16, z2 / 16 }
end

local function boxes(state)
  local def, known = minecraft.block_def(state)
  assert.is_true(known, state .. " should be known")
  return def.boxes
end

local FULL = { 0, 0, 0, 1, 1, 1 }
local f32 = require("helpers.world").f32 -- the game's float literals widened to double

describe("blockphys.minecraft", function()
  describe("parse_state()", function()
    it("splits a name and its properties", function()
      local name, props = minecraft.parse_state("minecraft:oak_stairs[facing=east,half=bottom]")
      assert.equal("minecraft:oak_stairs", name)
      assert.same({ facing = "east", half = "bottom" }, props)
    end)

    it("accepts names without properties, empty brackets and no namespace", function()
      assert.same({ "minecraft:stone", {} }, { minecraft.parse_state("minecraft:stone") })
      assert.same({ "minecraft:stone", {} }, { minecraft.parse_state("minecraft:stone[]") })
      assert.same({ "snow", { layers = "3" } }, { minecraft.parse_state("snow[layers=3]") })
    end)

    it("returns nil and a message for malformed states", function()
      assert.same({ nil, 'bad block state "": missing or invalid name' },
        { minecraft.parse_state("") })
      assert.same({ nil, 'bad block state "a[b=c": expected [key=value,...] after the name' },
        { minecraft.parse_state("a[b=c") })
      assert.same({ nil, 'bad block state "a[b]": malformed property list' },
        { minecraft.parse_state("a[b]") })
      assert.same({ nil, 'bad block state "a[b=c,,d=e]": malformed property list' },
        { minecraft.parse_state("a[b=c,,d=e]") })
      assert.same({ nil, 'bad block state "a[b=c,b=d]": property "b" repeated' },
        { minecraft.parse_state("a[b=c,b=d]") })
      assert.same({ nil, "block state must be a string, got number" },
        { minecraft.parse_state(5) })
    end)
  end)

  describe("block_def()", function()
    it("makes unknown blocks full cubes and says they were guessed", function()
      local def, known = minecraft.block_def("minecraft:frobnicator[level=3]")
      assert.is_false(known)
      assert.same({ name = "minecraft:frobnicator", boxes = { FULL }, slipperiness = f32(0.6) }, def)
      local mod, mknown = minecraft.block_def("mymod:crate")
      assert.is_false(mknown)
      assert.same({ FULL }, mod.boxes)
      assert.equal("mymod:crate", mod.name)
    end)

    it("treats a malformed state as an unknown full cube named by its text", function()
      local def, known = minecraft.block_def("oops[")
      assert.is_false(known)
      assert.equal("oops[", def.name)
      assert.same({ FULL }, def.boxes)
    end)

    it("falls back to defaults for invalid property values and reports a guess", function()
      local def, known = minecraft.block_def("minecraft:oak_stairs[facing=up]")
      assert.is_false(known)
      assert.equal("minecraft:oak_stairs[facing=north,half=bottom,shape=straight]", def.name)
    end)

    it("raises on a non-string state", function()
      assert.has_error(function() minecraft.block_def(nil) end,
        "bad argument #1 to 'block_def' (string expected, got nil)")
    end)

    it("knows common full cubes", function()
      for _, s in ipairs({ "minecraft:stone", "minecraft:end_stone", "minecraft:oak_planks",
        "minecraft:jungle_leaves[distance=7,persistent=true]", "minecraft:blue_terracotta",
        "minecraft:purpur_pillar[axis=y]", "minecraft:sea_lantern", "minecraft:bookshelf",
        "minecraft:yellow_stained_glass", "stone" }) do
        local def, known = minecraft.block_def(s)
        assert.is_true(known, s)
        assert.same({ FULL }, def.boxes, s)
      end
    end)

    it("adds the namespace and keeps only collision properties in the name", function()
      assert.equal("minecraft:stone", minecraft.block_def("stone").name)
      assert.equal("minecraft:oak_slab[type=top]",
        minecraft.block_def("minecraft:oak_slab[waterlogged=false,type=top]").name)
      assert.equal("minecraft:oak_slab[type=top]",
        minecraft.block_def("minecraft:oak_slab[powered=true,type=top]").name)
      assert.equal("minecraft:purpur_pillar", minecraft.block_def("minecraft:purpur_pillar[axis=x]").name)
    end)

    it("returns fresh box tables on every call", function()
      local a = minecraft.block_def("minecraft:oak_slab").boxes
      a[1][5] = 99
      assert.equal(0.5, minecraft.block_def("minecraft:oak_slab").boxes[1][5])
    end)

    it("keeps every box within the world's limits", function()
      local states = {
        "minecraft:oak_fence[north=true,east=true,south=true,west=true]",
        "minecraft:stone_brick_wall[north=tall,east=low,south=tall,west=low,up=true]",
        "minecraft:hopper[facing=east]", "minecraft:cauldron", "minecraft:anvil[facing=west]",
        "minecraft:lantern[hanging=true]", "minecraft:chest[facing=west,type=right]",
      }
      for _, s in ipairs(states) do
        for _, b in ipairs(minecraft.block_def(s).boxes) do
          assert.is_true(b[1] >= 0 and b[4] <= 1 and b[3] >= 0 and b[6] <= 1, s)
          assert.is_true(b[2] >= 0 and b[5] <= 2, s)
          assert.is_true(b[1] <= b[4] and b[2] <= b[5] and b[3] <= b[6], s)
        end
      end
    end)
  end)

  describe("slabs", function()
    it("bottom, top, double and the default", function()
      assert.same({ { 0, 0, 0, 1, 0.5, 1 } }, boxes("minecraft:stone_slab[type=bottom]"))
      assert.same({ { 0, 0.5, 0, 1, 1, 1 } }, boxes("minecraft:oak_slab[type=top,waterlogged=true]"))
      assert.same({ FULL }, boxes("minecraft:purpur_slab[type=double]"))
      assert.same({ { 0, 0, 0, 1, 0.5, 1 } }, boxes("minecraft:birch_slab"))
    end)
  end)

  describe("stairs", function()
    -- Upper halves and quarters of a bottom-half stair (y 0.5..1).
    local N, S = { 0, .5, 0, 1, 1, .5 }, { 0, .5, .5, 1, 1, 1 }
    local W, E = { 0, .5, 0, .5, 1, 1 }, { .5, .5, 0, 1, 1, 1 }
    local NW, NE = { 0, .5, 0, .5, 1, .5 }, { .5, .5, 0, 1, 1, .5 }
    local SW, SE = { 0, .5, .5, .5, 1, 1 }, { .5, .5, .5, 1, 1, 1 }
    local BOTTOM_SLAB = { 0, 0, 0, 1, 0.5, 1 }

    -- Which upper parts each facing and shape has; "left" is the left hand
    -- of someone facing the way the stairs face.
    local expected = {
      north = { straight = { N }, inner_left = { N, SW }, inner_right = { N, SE },
        outer_left = { NW }, outer_right = { NE } },
      east = { straight = { E }, inner_left = { E, NW }, inner_right = { E, SW },
        outer_left = { NE }, outer_right = { SE } },
      south = { straight = { S }, inner_left = { S, NE }, inner_right = { S, NW },
        outer_left = { SE }, outer_right = { SW } },
      west = { straight = { W }, inner_left = { W, SE }, inner_right = { W, NE },
        outer_left = { SW }, outer_right = { NW } },
    }

    for facing, shapes in pairs(expected) do
      for shape, parts in pairs(shapes) do
        it(("facing=%s shape=%s, bottom and top half"):format(facing, shape), function()
          local state = ("minecraft:oak_stairs[facing=%s,half=bottom,shape=%s,waterlogged=false]")
            :format(facing, shape)
          local want = { BOTTOM_SLAB }
          for i, p in ipairs(parts) do want[i + 1] = p end
          assert.same(want, boxes(state))

          -- Upside down: the slab moves up and the parts move to y 0..0.5.
          local top = boxes(state:gsub("half=bottom", "half=top"))
          local want_top = { { 0, 0.5, 0, 1, 1, 1 } }
          for i, p in ipairs(parts) do want_top[i + 1] = { p[1], 0, p[3], p[4], 0.5, p[6] } end
          assert.same(want_top, top)
        end)
      end
    end

    it("defaults to facing north, bottom, straight", function()
      local def = minecraft.block_def("minecraft:stone_stairs")
      assert.equal("minecraft:stone_stairs[facing=north,half=bottom,shape=straight]", def.name)
      assert.same({ BOTTOM_SLAB, N }, def.boxes)
    end)
  end)

  describe("fences", function()
    local POST = px(6, 0, 6, 10, 24, 10)

    it("are a 1.5 high post when unconnected", function()
      assert.same({ POST }, boxes("minecraft:oak_fence[north=false,east=false,south=false,west=false]"))
    end)

    it("add an arm toward each connected side", function()
      -- each arm runs from its side to the far edge of its own width (CrossCollisionBlock)
      assert.same({ POST, px(6, 0, 0, 10, 24, 10), px(6, 0, 6, 16, 24, 10) },
        boxes("minecraft:oak_fence[north=true,east=true,south=false,west=false,waterlogged=false]"))
      assert.same({ POST, px(6, 0, 6, 10, 24, 16), px(0, 0, 6, 10, 24, 10) },
        boxes("minecraft:nether_brick_fence[south=true,west=true]"))
    end)

    it("fence gates: a 1.5 high bar across the facing when closed, nothing when open", function()
      assert.same({ px(0, 0, 6, 16, 24, 10) }, boxes("minecraft:oak_fence_gate[facing=north,open=false]"))
      assert.same({ px(0, 0, 6, 16, 24, 10) }, boxes("minecraft:oak_fence_gate[facing=south,in_wall=true]"))
      assert.same({ px(6, 0, 0, 10, 24, 16) }, boxes("minecraft:spruce_fence_gate[facing=east]"))
      assert.same({}, boxes("minecraft:oak_fence_gate[facing=west,open=true]"))
    end)
  end)

  describe("glass panes and iron bars", function()
    local CORE = px(7, 0, 7, 9, 16, 9)

    it("are a thin core when unconnected", function()
      assert.same({ CORE }, boxes("minecraft:glass_pane"))
    end)

    it("add one-block-high arms", function()
      assert.same({ CORE, px(7, 0, 0, 9, 16, 9), px(7, 0, 7, 16, 16, 9), px(7, 0, 7, 9, 16, 16),
        px(0, 0, 7, 9, 16, 9) },
        boxes("minecraft:iron_bars[north=true,east=true,south=true,west=true,waterlogged=false]"))
      assert.same({ CORE, px(7, 0, 7, 16, 16, 9), px(0, 0, 7, 9, 16, 9) },
        boxes("minecraft:red_stained_glass_pane[east=true,west=true]"))
    end)
  end)

  describe("walls", function()
    it("have a post when up=true and 1.5 high arms for low and tall sides", function()
      assert.same({ px(4, 0, 4, 12, 24, 12), px(5, 0, 0, 11, 24, 11), px(5, 0, 5, 11, 24, 16) },
        boxes("minecraft:cobblestone_wall[north=low,south=tall,east=none,west=none,up=true]"))
    end)

    it("have only arms when up=false, each reaching 3/16 past the centre (WallBlock)", function()
      assert.same({ px(5, 0, 5, 16, 24, 11), px(0, 0, 5, 11, 24, 11) },
        boxes("minecraft:stone_brick_wall[east=tall,west=low,north=none,south=none,up=false]"))
      -- one arm, or two at a right angle: the union ends at 11/16, not at the centre
      assert.same({ px(5, 0, 0, 11, 24, 11) },
        boxes("minecraft:cobblestone_wall[up=false,north=low,east=none,south=none,west=none]"))
      assert.same({ px(5, 0, 5, 16, 24, 11), px(5, 0, 5, 11, 24, 16) },
        boxes("minecraft:cobblestone_wall[up=false,north=none,east=low,south=tall,west=none]"))
    end)

    it("accept the pre-1.16 true/false connections", function()
      assert.same({ px(4, 0, 4, 12, 24, 12), px(5, 0, 0, 11, 24, 11) },
        boxes("minecraft:cobblestone_wall[north=true,east=false,up=true]"))
    end)
  end)

  describe("snow layers", function()
    it("collide one layer lower than they look", function()
      assert.same({}, boxes("minecraft:snow[layers=1]"))
      assert.same({}, boxes("minecraft:snow"))
      for layers = 2, 8 do
        assert.same({ { 0, 0, 0, 1, (layers - 1) / 8, 1 } }, boxes("minecraft:snow[layers=" .. layers .. "]"))
      end
      assert.same({ { 0, 0, 0, 1, 0.875, 1 } }, boxes("minecraft:snow[layers=8]"))
    end)
  end)

  describe("carpets", function()
    it("are 1/16 high", function()
      for _, s in ipairs({ "minecraft:purple_carpet", "minecraft:white_carpet", "minecraft:moss_carpet" }) do
        assert.same({ { 0, 0, 0, 1, 0.0625, 1 } }, boxes(s))
      end
    end)

    it("pale moss carpet collides only as a bottom piece (MossyCarpetBlock)", function()
      assert.same({ px(0, 0, 0, 16, 1, 16) }, boxes("minecraft:pale_moss_carpet[bottom=true,north=low]"))
      assert.same({ px(0, 0, 0, 16, 1, 16) }, boxes("minecraft:pale_moss_carpet"))
      assert.same({}, boxes("minecraft:pale_moss_carpet[bottom=false,north=tall]"))
    end)
  end)

  describe("doors", function()
    it("closed: 3/16 thick on the edge opposite the facing", function()
      assert.same({ px(0, 0, 13, 16, 16, 16) }, boxes("minecraft:oak_door[facing=north,open=false,hinge=left]"))
      assert.same({ px(0, 0, 0, 3, 16, 16) }, boxes("minecraft:oak_door[facing=east,half=upper]"))
      assert.same({ px(0, 0, 0, 16, 16, 3) }, boxes("minecraft:iron_door[facing=south]"))
      assert.same({ px(13, 0, 0, 16, 16, 16) }, boxes("minecraft:birch_door[facing=west,hinge=right]"))
    end)

    it("open: against the side of the hinge", function()
      assert.same({ px(13, 0, 0, 16, 16, 16) }, boxes("minecraft:oak_door[facing=north,open=true,hinge=right]"))
      assert.same({ px(0, 0, 0, 3, 16, 16) }, boxes("minecraft:oak_door[facing=north,open=true,hinge=left]"))
      assert.same({ px(0, 0, 13, 16, 16, 16) }, boxes("minecraft:oak_door[facing=east,open=true,hinge=right]"))
      assert.same({ px(0, 0, 0, 16, 16, 3) }, boxes("minecraft:oak_door[facing=east,open=true,hinge=left]"))
      assert.same({ px(0, 0, 0, 3, 16, 16) }, boxes("minecraft:oak_door[facing=south,open=true,hinge=right]"))
      assert.same({ px(0, 0, 0, 16, 16, 3) }, boxes("minecraft:oak_door[facing=west,open=true,hinge=right]"))
    end)
  end)

  describe("trapdoors", function()
    it("closed: a 3/16 plate at the bottom or top", function()
      assert.same({ px(0, 0, 0, 16, 3, 16) }, boxes("minecraft:oak_trapdoor[facing=east,half=bottom,open=false]"))
      assert.same({ px(0, 13, 0, 16, 16, 16) }, boxes("minecraft:iron_trapdoor[half=top]"))
    end)

    it("open: standing on the edge opposite the facing, whatever the half", function()
      assert.same({ px(0, 0, 13, 16, 16, 16) }, boxes("minecraft:oak_trapdoor[facing=north,open=true]"))
      assert.same({ px(0, 0, 0, 16, 16, 3) }, boxes("minecraft:oak_trapdoor[facing=south,open=true,half=top]"))
      assert.same({ px(0, 0, 0, 3, 16, 16) }, boxes("minecraft:oak_trapdoor[facing=east,open=true]"))
      assert.same({ px(13, 0, 0, 16, 16, 16) }, boxes("minecraft:oak_trapdoor[facing=west,open=true]"))
    end)
  end)

  describe("ladders", function()
    it("are 3/16 thick against the wall behind them and climbable", function()
      local cases = {
        north = px(0, 0, 13, 16, 16, 16), south = px(0, 0, 0, 16, 16, 3),
        east = px(0, 0, 0, 3, 16, 16), west = px(13, 0, 0, 16, 16, 16),
      }
      for facing, box in pairs(cases) do
        local def, known = minecraft.block_def("minecraft:ladder[facing=" .. facing .. ",waterlogged=false]")
        assert.is_true(known)
        assert.same({ box }, def.boxes)
        assert.is_true(def.climbable)
        assert.equal("minecraft:ladder[facing=" .. facing .. "]", def.name)
      end
    end)
  end)

  describe("heads", function()
    it("on the floor: 8/16 wide, 8/16 high, any rotation", function()
      assert.same({ { 0.25, 0, 0.25, 0.75, 0.5, 0.75 } }, boxes("minecraft:player_head[powered=false,rotation=6]"))
      assert.same({ { 0.25, 0, 0.25, 0.75, 0.5, 0.75 } }, boxes("minecraft:skeleton_skull[rotation=0]"))
      assert.same({ px(3, 0, 3, 13, 8, 13) }, boxes("minecraft:piglin_head"))
    end)

    it("on a wall: against the wall behind them", function()
      assert.same({ px(4, 4, 8, 12, 12, 16) }, boxes("minecraft:player_wall_head[facing=north]"))
      assert.same({ px(4, 4, 0, 12, 12, 8) }, boxes("minecraft:zombie_wall_head[facing=south]"))
      assert.same({ px(0, 4, 4, 8, 12, 12) }, boxes("minecraft:creeper_wall_head[facing=east]"))
      assert.same({ px(8, 4, 4, 16, 12, 12) }, boxes("minecraft:wither_skeleton_wall_skull[facing=west]"))
      assert.same({ px(3, 4, 8, 13, 12, 16) }, boxes("minecraft:piglin_wall_head[facing=north]"))
    end)

    it("do not take piston heads for mob heads", function()
      local def, known = minecraft.block_def("minecraft:piston_head[facing=up]")
      assert.is_true(known)
      assert.equal("minecraft:piston_head[facing=up]", def.name)
      assert.same({ px(0, 12, 0, 16, 16, 16), px(6, 0, 6, 10, 16, 10) }, def.boxes)
    end)
  end)

  describe("end rods, lightning rods and chains", function()
    it("are thin along their axis", function()
      assert.same({ px(6, 0, 6, 10, 16, 10) }, boxes("minecraft:end_rod[facing=down]"))
      assert.same({ px(6, 0, 6, 10, 16, 10) }, boxes("minecraft:end_rod[facing=up]"))
      assert.same({ px(6, 6, 0, 10, 10, 16) }, boxes("minecraft:end_rod[facing=north]"))
      assert.same({ px(0, 6, 6, 16, 10, 10) }, boxes("minecraft:lightning_rod[facing=east,powered=false]"))
      assert.same({ px(6.5, 0, 6.5, 9.5, 16, 9.5) }, boxes("minecraft:chain[axis=y]"))
      assert.same({ px(0, 6.5, 6.5, 16, 9.5, 9.5) }, boxes("minecraft:iron_chain[axis=x]"))
    end)
  end)

  describe("other partial blocks", function()
    it("have their vanilla heights", function()
      local cases = {
        ["minecraft:soul_sand"] = { px(0, 0, 0, 16, 14, 16) },
        ["minecraft:farmland[moisture=7]"] = { px(0, 0, 0, 16, 15, 16) },
        ["minecraft:dirt_path"] = { px(0, 0, 0, 16, 15, 16) },
        ["minecraft:enchanting_table"] = { px(0, 0, 0, 16, 12, 16) },
        ["minecraft:daylight_detector[inverted=false,power=0]"] = { px(0, 0, 0, 16, 6, 16) },
        ["minecraft:cactus[age=3]"] = { px(1, 0, 1, 15, 15, 15) },
        ["minecraft:chest[facing=north,type=single]"] = { px(1, 0, 1, 15, 14, 15) },
        ["minecraft:ender_chest[facing=west]"] = { px(1, 0, 1, 15, 14, 15) },

        ["minecraft:lily_pad"] = { px(1, 0, 1, 15, 1.5, 15) },
        ["minecraft:cake[bites=3]"] = { px(7, 0, 1, 15, 8, 15) },
        ["minecraft:lantern[hanging=false]"] = { px(5, 0, 5, 11, 7, 11), px(6, 7, 6, 10, 9, 10) },
        ["minecraft:soul_lantern[hanging=true]"] = { px(5, 1, 5, 11, 8, 11), px(6, 8, 6, 10, 10, 10) },
        ["minecraft:brewing_stand"] = { px(1, 0, 1, 15, 2, 15), px(7, 2, 7, 9, 14, 9) },
      }
      for state, want in pairs(cases) do assert.same(want, boxes(state), state) end
    end)

    it("double chests reach the edge they share with their other half", function()
      assert.same({ px(1, 0, 1, 16, 14, 15) }, boxes("minecraft:chest[facing=north,type=left]"))
      assert.same({ px(0, 0, 1, 15, 14, 15) }, boxes("minecraft:chest[facing=north,type=right]"))
      assert.same({ px(1, 0, 1, 15, 14, 16) }, boxes("minecraft:trapped_chest[facing=east,type=left]"))
      -- copper chests are chests (CopperChestBlock extends ChestBlock), at every stage
      assert.same({ px(1, 0, 1, 15, 14, 15) }, boxes("minecraft:exposed_copper_chest[facing=north,type=single]"))
      assert.same({ px(1, 0, 1, 15, 14, 16) }, boxes("minecraft:waxed_copper_chest[facing=east,type=left]"))
      assert.same({ px(1, 0, 1, 16, 14, 15) }, boxes("minecraft:copper_chest[facing=south,type=right]"))
    end)

    it("shelves: a back panel with two lips, turned by the facing (ShelfBlock)", function()
      assert.same({ px(0, 0, 13, 16, 16, 16), px(0, 12, 11, 16, 16, 13), px(0, 0, 11, 16, 4, 13) },
        boxes("minecraft:oak_shelf[facing=north,powered=false]"))
      assert.same({ px(0, 0, 0, 3, 16, 16), px(3, 12, 0, 5, 16, 16), px(3, 0, 0, 5, 4, 16) },
        boxes("minecraft:bamboo_shelf[facing=east]"))
    end)

    it("potted saplings and tulips are flower pots, the plants themselves walk-through", function()
      for _, plant in ipairs({ "oak_sapling", "cherry_sapling", "red_tulip", "pink_tulip", "poppy" }) do
        assert.same({ px(5, 0, 5, 11, 6, 11) }, boxes("minecraft:potted_" .. plant))
      end
      assert.same({}, boxes("minecraft:oak_sapling[stage=0]"))
      assert.same({}, boxes("minecraft:red_tulip"))
    end)

    it("wall hanging signs collide by their top plank only; other signs not at all", function()
      assert.same({ px(0, 14, 6, 16, 16, 10) }, boxes("minecraft:oak_wall_hanging_sign[facing=south]"))
      assert.same({ px(6, 14, 0, 10, 16, 16) }, boxes("minecraft:crimson_wall_hanging_sign[facing=west]"))
      assert.same({}, boxes("minecraft:oak_hanging_sign[rotation=4,attached=true]"))
      assert.same({}, boxes("minecraft:oak_wall_sign[facing=north]"))
    end)

    it("straw beds: a mattress, and a pillow on the head half toward the facing", function()
      assert.same({ px(0, 0, 0, 16, 4, 16) }, boxes("minecraft:straw_bed[facing=west,part=foot]"))
      assert.same({ px(0, 0, 0, 16, 4, 16), px(0, 0, 0, 16, 5, 8) },
        boxes("minecraft:straw_bed[facing=north,part=head]"))
      assert.same({ px(0, 0, 0, 16, 4, 16), px(8, 0, 0, 16, 5, 16) },
        boxes("minecraft:straw_bed[facing=east,part=head]"))
    end)

    it("shelf mushrooms grow out of the wall behind them", function()
      assert.same({ px(3, 9, 9, 13, 11, 16), px(5, 8, 12, 11, 9, 16) },
        boxes("minecraft:shelf_mushroom[age=0,facing=north]"))
      assert.same({ px(1, 8, 6, 15, 11, 16), px(4, 6, 10, 12, 8, 16) },
        boxes("minecraft:shelf_mushroom[age=1,facing=north]"))
      assert.same({ px(0, 9, 3, 7, 11, 13), px(0, 8, 5, 4, 9, 11) },
        boxes("minecraft:shelf_mushroom[age=0,facing=east]"))
    end)

    it("sulfur spikes take pointed dripstone's shapes; pitcher crops collide by the lower half", function()
      assert.same({ px(5, 0, 5, 11, 11, 11) }, boxes("minecraft:sulfur_spike[thickness=tip,vertical_direction=up]"))
      assert.same({ px(2, 0, 2, 14, 16, 14) }, boxes("minecraft:sulfur_spike[thickness=base,vertical_direction=down]"))
      assert.same({}, boxes("minecraft:pitcher_crop[age=0,half=upper]"))
      assert.same({ px(5, 0, 5, 11, 3, 11) }, boxes("minecraft:pitcher_crop[age=0,half=lower]"))
    end)

    it("copper golem statues and dried ghasts are columns", function()
      assert.same({ px(3, 0, 3, 13, 14, 13) }, boxes("minecraft:copper_golem_statue"))
      assert.same({ px(3, 0, 3, 13, 14, 13) },
        boxes("minecraft:waxed_weathered_copper_golem_statue[facing=south,copper_golem_pose=running]"))
      assert.same({ px(3, 0, 3, 13, 10, 13) }, boxes("minecraft:dried_ghast[facing=north,hydration=2]"))
    end)

    it("anvils turn their top across the facing", function()
      assert.same({ px(2, 0, 2, 14, 4, 14), px(4, 4, 3, 12, 5, 13), px(6, 5, 4, 10, 10, 12),
        px(3, 10, 0, 13, 16, 16) }, boxes("minecraft:anvil[facing=north]"))
      assert.same({ px(2, 0, 2, 14, 4, 14), px(3, 4, 4, 13, 5, 12), px(4, 5, 6, 12, 10, 10),
        px(0, 10, 3, 16, 16, 13) }, boxes("minecraft:damaged_anvil[facing=west]"))
    end)
  end)

  -- Vanilla's shapes for these (in sixteenths): CandleBlock, BedBlock,
  -- AbstractCauldronBlock, PistonBaseBlock / PistonHeadBlock, GrindstoneBlock,
  -- BellBlock, CocoaBlock, AmethystClusterBlock, SeaPickleBlock, TurtleEggBlock,
  -- PointedDripstoneBlock, BigDripleafBlock, PipeBlock (chorus plant),
  -- PitcherCropBlock, AzaleaBlock, SnifferEggBlock.
  describe("decorations with state-dependent shapes", function()
    it("candles: the group's box by count", function()
      assert.same({ px(7, 0, 7, 9, 6, 9) }, boxes("minecraft:candle[candles=1,lit=false]"))
      assert.same({ px(5, 0, 6, 11, 6, 9) }, boxes("minecraft:red_candle[candles=2]"))
      assert.same({ px(5, 0, 6, 10, 6, 11) }, boxes("minecraft:candle[candles=3]"))
      assert.same({ px(5, 0, 5, 11, 6, 10) }, boxes("minecraft:blue_candle[candles=4]"))
    end)

    it("beds: a slab 3/16 up on legs at the bed's outer end", function()
      local base = px(0, 3, 0, 16, 9, 16)
      -- the head's legs are toward its facing, the foot's away from it
      assert.same({ base, px(0, 0, 0, 3, 3, 3), px(13, 0, 0, 16, 3, 3) },
        boxes("minecraft:red_bed[facing=north,part=head,occupied=false]"))
      assert.same({ base, px(13, 0, 13, 16, 3, 16), px(0, 0, 13, 3, 3, 16) },
        boxes("minecraft:white_bed[facing=north,part=foot]"))
      assert.same({ base, px(13, 0, 0, 16, 3, 3), px(13, 0, 13, 16, 3, 16) },
        boxes("minecraft:red_bed[part=head,facing=east]"))
    end)

    it("cauldrons: a floor 3/16 up on four L-shaped legs, open on top", function()
      local b = boxes("minecraft:water_cauldron[level=2]")
      assert.equal(13, #b)
      assert.same(px(0, 3, 0, 16, 4, 16), b[1])
      -- under the floor only the corners are solid: the middle of each side is free
      local bp = require "blockphys"
      local w = bp.World()
      w:define_block(minecraft.block_def("minecraft:cauldron"))
      w:set_block(0, 0, 0, "minecraft:cauldron")
      assert.same({}, w:boxes_in(bp.Collider(0.3, 0, 0, 0.7, 3 / 16, 1)))
      assert.same({}, w:boxes_in(bp.Collider(2 / 16, 4 / 16, 2 / 16, 14 / 16, 1, 14 / 16)))
      assert.equal(8, #w:boxes_in(bp.Collider(0, 0, 0, 1, 3 / 16, 1))) -- two per leg
    end)

    it("pistons: extended bases are 12/16 deep; heads a plate and an arm in their cell", function()
      assert.same({ px(0, 0, 0, 16, 16, 16) }, boxes("minecraft:piston[facing=up,extended=false]"))
      assert.same({ px(0, 0, 0, 16, 12, 16) }, boxes("minecraft:piston[facing=up,extended=true]"))
      assert.same({ px(0, 4, 0, 16, 16, 16) }, boxes("minecraft:sticky_piston[facing=down,extended=true]"))
      assert.same({ px(0, 0, 4, 16, 16, 16) }, boxes("minecraft:piston[facing=north,extended=true]"))
      assert.same({ px(0, 0, 0, 12, 16, 16) }, boxes("minecraft:piston[facing=east,extended=true]"))
      assert.same({ px(0, 0, 0, 16, 16, 4), px(6, 6, 0, 10, 10, 16) },
        boxes("minecraft:piston_head[facing=north,short=false,type=normal]"))
      assert.same({ px(12, 0, 0, 16, 16, 16), px(0, 6, 6, 16, 10, 10) },
        boxes("minecraft:piston_head[facing=east]"))
    end)

    it("grindstones: posts, pivots and wheel by face and facing", function()
      assert.same({ px(2, 0, 6, 4, 7, 10), px(12, 0, 6, 14, 7, 10), px(2, 7, 5, 4, 13, 11),
        px(12, 7, 5, 14, 13, 11), px(4, 4, 2, 12, 16, 14) },
        boxes("minecraft:grindstone[face=floor,facing=south]"))
      assert.same({ px(6, 0, 2, 10, 7, 4), px(6, 0, 12, 10, 7, 14), px(5, 7, 2, 11, 13, 4),
        px(5, 7, 12, 11, 13, 14), px(2, 4, 4, 14, 16, 12) },
        boxes("minecraft:grindstone[face=floor,facing=east]"))
      assert.same({ px(6, 9, 2, 10, 16, 4), px(6, 9, 12, 10, 16, 14), px(5, 3, 2, 11, 9, 4),
        px(5, 3, 12, 11, 9, 14), px(2, 0, 4, 14, 12, 12) },
        boxes("minecraft:grindstone[face=ceiling,facing=west]"))
      assert.same({ px(2, 6, 7, 4, 10, 16), px(12, 6, 7, 14, 10, 16), px(2, 5, 3, 4, 11, 9),
        px(12, 5, 3, 14, 11, 9), px(4, 2, 0, 12, 14, 12) },
        boxes("minecraft:grindstone[face=wall,facing=north]"))
      assert.same({ px(0, 6, 2, 9, 10, 4), px(0, 6, 12, 9, 10, 14), px(7, 5, 2, 13, 11, 4),
        px(7, 5, 12, 13, 11, 14), px(4, 2, 4, 16, 14, 12) },
        boxes("minecraft:grindstone[face=wall,facing=east]"))
    end)

    it("bells: a floor frame, or the bell and its bar", function()
      local bell = { px(4, 4, 4, 12, 6, 12), px(5, 6, 5, 11, 13, 11) }
      local function with(bar) return { bell[1], bell[2], bar } end
      assert.same({ px(0, 0, 4, 16, 16, 12) }, boxes("minecraft:bell[attachment=floor,facing=south]"))
      assert.same({ px(4, 0, 0, 12, 16, 16) }, boxes("minecraft:bell[attachment=floor,facing=east]"))
      assert.same(with(px(7, 13, 7, 9, 16, 9)), boxes("minecraft:bell[attachment=ceiling,facing=east]"))
      assert.same(with(px(7, 13, 0, 9, 15, 16)), boxes("minecraft:bell[attachment=double_wall,facing=north]"))
      assert.same(with(px(0, 13, 7, 16, 15, 9)), boxes("minecraft:bell[attachment=double_wall,facing=west]"))
      assert.same(with(px(7, 13, 0, 9, 15, 13)), boxes("minecraft:bell[attachment=single_wall,facing=north]"))
      assert.same(with(px(7, 13, 3, 9, 15, 16)), boxes("minecraft:bell[attachment=single_wall,facing=south]"))
      assert.same(with(px(3, 13, 7, 16, 15, 9)), boxes("minecraft:bell[attachment=single_wall,facing=east]"))
      assert.same(with(px(0, 13, 7, 13, 15, 9)), boxes("minecraft:bell[attachment=single_wall,facing=west]"))
    end)

    it("cocoa grows from the log it faces", function()
      assert.same({ px(6, 7, 1, 10, 12, 5) }, boxes("minecraft:cocoa[age=0,facing=north]"))
      assert.same({ px(5, 5, 1, 11, 12, 7) }, boxes("minecraft:cocoa[age=1,facing=north]"))
      assert.same({ px(7, 3, 4, 15, 12, 12) }, boxes("minecraft:cocoa[age=2,facing=east]"))
      assert.same({ px(4, 3, 7, 12, 12, 15) }, boxes("minecraft:cocoa[age=2,facing=south]"))
      assert.same({ px(1, 5, 5, 7, 12, 11) }, boxes("minecraft:cocoa[age=1,facing=west]"))
    end)

    it("amethyst buds and clusters grow out of the face they sit on", function()
      assert.same({ px(3, 0, 3, 13, 7, 13) }, boxes("minecraft:amethyst_cluster[facing=up]"))
      assert.same({ px(3, 9, 3, 13, 16, 13) }, boxes("minecraft:amethyst_cluster[facing=down]"))
      assert.same({ px(3, 3, 11, 13, 13, 16) }, boxes("minecraft:large_amethyst_bud[facing=north]"))
      assert.same({ px(3, 3, 0, 13, 13, 4) }, boxes("minecraft:medium_amethyst_bud[facing=south]"))
      assert.same({ px(0, 4, 4, 3, 12, 12) }, boxes("minecraft:small_amethyst_bud[facing=east]"))
      assert.same({ px(9, 3, 3, 16, 13, 13) }, boxes("minecraft:amethyst_cluster[facing=west]"))
    end)

    it("counted and grown small blocks", function()
      assert.same({ px(6, 0, 6, 10, 6, 10) }, boxes("minecraft:sea_pickle[pickles=1,waterlogged=true]"))
      assert.same({ px(3, 0, 3, 13, 6, 13) }, boxes("minecraft:sea_pickle[pickles=2]"))
      assert.same({ px(2, 0, 2, 14, 7, 14) }, boxes("minecraft:sea_pickle[pickles=4]"))
      assert.same({ px(3, 0, 3, 12, 7, 12) }, boxes("minecraft:turtle_egg[eggs=1,hatch=0]"))
      assert.same({ px(1, 0, 1, 15, 7, 15) }, boxes("minecraft:turtle_egg[eggs=3]"))
      local drip = "minecraft:pointed_dripstone[thickness=%s,vertical_direction=%s]"
      assert.same({ px(5, 0, 5, 11, 11, 11) }, boxes(drip:format("tip", "up")))
      assert.same({ px(5, 5, 5, 11, 16, 11) }, boxes(drip:format("tip", "down")))
      assert.same({ px(2, 0, 2, 14, 16, 14) }, boxes(drip:format("base", "down")))
      assert.same({ px(0, 11, 0, 16, 15, 16) }, boxes("minecraft:big_dripleaf[facing=north,tilt=none]"))
      assert.same({ px(0, 11, 0, 16, 13, 16) }, boxes("minecraft:big_dripleaf[tilt=partial]"))
      assert.same({}, boxes("minecraft:big_dripleaf[tilt=full]"))
      assert.same({ px(5, 0, 5, 11, 3, 11) }, boxes("minecraft:pitcher_crop[age=0,half=lower]"))
      assert.same({ px(3, 0, 3, 13, 5, 13) }, boxes("minecraft:pitcher_crop[age=3,half=lower]"))
      assert.same({}, boxes("minecraft:pitcher_crop[age=3,half=upper]"))
      assert.same({ px(0, 8, 0, 16, 16, 16), px(6, 0, 6, 10, 8, 10) }, boxes("minecraft:flowering_azalea"))
      assert.same({ px(1, 0, 2, 15, 16, 14) }, boxes("minecraft:sniffer_egg[hatch=1]"))
    end)

    it("chorus plants: a core with an arm to each connected face", function()
      assert.same({ px(3, 3, 3, 13, 13, 13) }, boxes("minecraft:chorus_plant"))
      assert.same({ px(3, 3, 3, 13, 13, 13), px(13, 3, 3, 16, 13, 13), px(3, 0, 3, 13, 3, 13) },
        boxes("minecraft:chorus_plant[east=true,down=true,up=false]"))
    end)

    it("knows the plain full cubes among them", function()
      for _, name in ipairs{ "bricks", "chiseled_tuff", "polished_tuff", "shulker_box",
                             "bamboo_mosaic", "chorus_flower" } do
        local def, known = minecraft.block_def("minecraft:" .. name)
        assert.is_true(known, name)
        assert.same({ FULL }, def.boxes)
      end
    end)
  end)

  describe("blocks without collision", function()
    it("have no boxes", function()
      for _, s in ipairs({
        "minecraft:air", "minecraft:cave_air", "minecraft:oak_sign[rotation=4]",
        "minecraft:oak_wall_sign[facing=east,waterlogged=false]", "minecraft:oak_hanging_sign",
        "minecraft:poppy", "minecraft:short_grass", "minecraft:tall_grass[half=upper]",
        "minecraft:oak_sapling[stage=0]", "minecraft:torch", "minecraft:soul_wall_torch[facing=north]",
        "minecraft:redstone_wire", "minecraft:rail[shape=north_south]", "minecraft:powered_rail",
        "minecraft:stone_button[face=wall]", "minecraft:lever", "minecraft:oak_pressure_plate",
        "minecraft:wheat[age=7]", "minecraft:sugar_cane", "minecraft:red_mushroom",
        "minecraft:cobweb", "minecraft:fire", "minecraft:white_banner", "minecraft:red_wall_banner",
        "minecraft:structure_void", "minecraft:light[level=15]", "minecraft:red_tulip",
        "minecraft:tube_coral_fan", "minecraft:dead_bush",
      }) do
        local def, known = minecraft.block_def(s)
        assert.is_true(known, s)
        assert.same({}, def.boxes, s)
        assert.is_nil(def.liquid, s)
        assert.is_nil(def.climbable, s)
      end
    end)

    it("vines and scaffolding are climbable without boxes", function()
      for _, s in ipairs({ "minecraft:vine[north=true]", "minecraft:twisting_vines", "minecraft:scaffolding" }) do
        local def = minecraft.block_def(s)
        assert.same({}, def.boxes, s)
        assert.is_true(def.climbable, s)
      end
    end)
  end)

  describe("liquids", function()
    it("water, lava and bubble columns are liquids without boxes", function()
      local water = minecraft.block_def("minecraft:water[level=0]")
      assert.same({ name = "minecraft:water", boxes = {}, slipperiness = f32(0.6), liquid = "water" }, water)
      assert.equal("lava", minecraft.block_def("minecraft:lava[level=3]").liquid)
      assert.equal("water", minecraft.block_def("minecraft:bubble_column[drag=true]").liquid)
      assert.equal("water", minecraft.block_def("minecraft:kelp_plant").liquid)
    end)

    it("waterlogged blocks are still water with their boxes, named apart", function()
      local def = minecraft.block_def("minecraft:oak_slab[type=bottom,waterlogged=true]")
      assert.equal("water", def.liquid)
      assert.is_nil(def.level)
      assert.equal("minecraft:oak_slab[type=bottom,waterlogged=true]", def.name)
      assert.same({ { 0, 0, 0, 1, 0.5, 1 } }, def.boxes)
      local dry = minecraft.block_def("minecraft:oak_slab[type=bottom,waterlogged=false]")
      assert.is_nil(dry.liquid)
      assert.equal("minecraft:oak_slab[type=bottom]", dry.name)
      -- sorted among the collision properties; a sign without boxes is plain water
      assert.equal("minecraft:oak_fence[east=true,north=false,south=false,waterlogged=true,west=false]",
        minecraft.block_def("minecraft:oak_fence[waterlogged=true,east=true]").name)
      local sign = minecraft.block_def("minecraft:oak_sign[rotation=4,waterlogged=true]")
      assert.same({}, sign.boxes)
      assert.equal("water", sign.liquid)
      -- water itself is not "waterlogged"
      assert.equal("minecraft:water", minecraft.block_def("minecraft:water[waterlogged=true]").name)
    end)

    it("puts an entity in a waterlogged slab in water, standing on the slab", function()
      local w = require("blockphys").World()
      w:paste({ width = 1, height = 2, length = 1, offset = { 0, 0, 0 }, format = "sponge2",
                palette = { "minecraft:stone", "minecraft:oak_slab[type=bottom,waterlogged=true]" },
                blocks = string.char(0, 1), cell_bytes = 1, get = function() end }, 0, 0, 0)
      local e = w:spawn{ x = 0.5, y = 1.5, z = 0.5 } -- water test range: cells y = 1, 2
      w:step()
      assert.is_true(e.in_water)
      for _ = 1, 40 do w:step() end
      assert.equal(1.5, e.y) -- held by the slab's box
      assert.is_true(e.in_water)
    end)
  end)

  describe("slipperiness", function()
    it("is 0.6F by default and higher on ice and slime (the game's float constants)", function()
      assert.equal(f32(0.6), minecraft.block_def("minecraft:stone").slipperiness)
      assert.equal(0.6000000238418579, minecraft.block_def("minecraft:stone").slipperiness)
      assert.equal(f32(0.98), minecraft.block_def("minecraft:ice").slipperiness)
      assert.equal(f32(0.98), minecraft.block_def("minecraft:packed_ice").slipperiness)
      assert.equal(f32(0.98), minecraft.block_def("minecraft:frosted_ice[age=1]").slipperiness)
      assert.equal(f32(0.989), minecraft.block_def("minecraft:blue_ice").slipperiness)
      assert.equal(f32(0.8), minecraft.block_def("minecraft:slime_block").slipperiness)
      assert.equal(f32(0.6), minecraft.block_def("minecraft:honey_block").slipperiness)
      -- the same value as define_block's own default
      local w = require("blockphys").World()
      w:define_block(minecraft.block_def("minecraft:stone"))
      w:define_block{ name = "plain" }
      assert.equal(w:block_info("plain").slipperiness, w:block_info("minecraft:stone").slipperiness)
    end)
  end)

  describe("known() and is_air()", function()
    it("tell known names and air", function()
      assert.is_true(minecraft.known("minecraft:oak_fence"))
      assert.is_true(minecraft.known("stone"))
      assert.is_false(minecraft.known("minecraft:unknown_300"))
      assert.is_false(minecraft.known(nil))
      assert.is_true(minecraft.is_air("minecraft:cave_air"))
      assert.is_true(minecraft.is_air("void_air"))
      -- a block without collision, which WorldEdit places (Litematica's paste skips it)
      assert.is_false(minecraft.is_air("minecraft:structure_void"))
      assert.is_false(minecraft.is_air("minecraft:stone"))
    end)
  end)
end)
