-- luacheck: std +busted
-- Specs for blockphys.minecraft_beta173 (bp.minecraft.beta173): Beta 1.7.3's
-- collision boxes where they differ from today's, written out by hand from the
-- Beta block classes (BlockFence, BlockLadder, BlockSnow, BlockChest,
-- BlockFarmland, BlockCake), and what they change for a Beta entity.

local bp = require "blockphys"
local H = require "helpers.world"
local minecraft = require "blockphys.minecraft"
local beta = bp.minecraft.beta173

local FULL = { 0, 0, 0, 1, 1, 1 }
local HALF_WIDTH = H.F.half_width -- 0.6F / 2

local function def_of(state)
  local def, known = beta.block_def(state)
  assert.is_true(known, state .. " should be known")
  return def
end

-- A schematic table of the given states in a row along +X, `height` rows high
-- (default 1; cell_bytes 1).
local function row(states, height)
  local blocks = {}
  for i = 1, #states do blocks[i] = string.char(i - 1) end
  return { width = #states, height = height or 1, length = 1, palette = states,
           blocks = table.concat(blocks):rep(height or 1), cell_bytes = 1 }
end

-- A world with a stone floor whose top is y = 64, and a column of one block
-- state, `height` high (default 1), pasted at (0, 64, 3) with the given shape table.
local function world_with(state, shapes, height)
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-8, 63, -8, 8, 63, 8, "stone")
  w:paste(row({ state }, height), 0, 64, 3, shapes)
  return w
end

-- Drops a Beta player onto cell (0, 64, 3) and returns where its box rests.
local function landing_y(state, shapes)
  local w = world_with(state, shapes)
  local e = w:spawn{ x = 0.5, y = 66, z = 3.5 }
  for _ = 1, 60 do w:step() end
  assert.is_true(e.on_ground)
  return e.y
end

-- A Beta player walking toward +Z (yaw 0) at the given x from z = 0.5;
-- returns the entity after `ticks` ticks.
local function walk_z(w, x, ticks)
  local e = w:spawn{ x = x, y = 64, z = 0.5 }
  e.forward = 1
  for _ = 1, ticks do w:step() end
  return e
end

describe("bp.minecraft.beta173", function()
  it("is the module blockphys.minecraft_beta173, loaded on first use", function()
    assert.equal(require "blockphys.minecraft_beta173", beta)
    assert.equal(beta, minecraft.beta173)
  end)

  describe("block_def()", function()
    it("gives every fence (not gates) the whole cell 1.5 high, whatever its connections", function()
      for _, state in ipairs({ "minecraft:oak_fence",
          "minecraft:oak_fence[east=true,north=false,south=true,waterlogged=false,west=false]",
          "nether_brick_fence[north=true]", "minecraft:spruce_fence[west=true]" }) do
        local def = def_of(state)
        assert.same({ { 0, 0, 0, 1, 1.5, 1 } }, def.boxes)
        local name = state:match("^[^%[]+")
        if not name:find(":") then name = "minecraft:" .. name end
        assert.equal(name .. "@beta173", def.name)
      end
      assert.same(minecraft.block_def("minecraft:oak_fence_gate[facing=east]"),
        beta.block_def("minecraft:oak_fence_gate[facing=east]"))
    end)

    it("makes ladders 0.125 thick against the wall opposite their facing", function()
      local want = {
        north = { 0, 0, 0.875, 1, 1, 1 }, south = { 0, 0, 0, 1, 1, 0.125 },
        west = { 0.875, 0, 0, 1, 1, 1 }, east = { 0, 0, 0, 0.125, 1, 1 },
      }
      for facing, box in pairs(want) do
        local def = def_of("minecraft:ladder[facing=" .. facing .. ",waterlogged=false]")
        assert.same({ box }, def.boxes)
        assert.equal("minecraft:ladder[facing=" .. facing .. "]@beta173", def.name)
        assert.is_true(def.climbable)
      end
      assert.same({ want.north }, def_of("ladder").boxes) -- default facing
    end)

    it("gives snow layers no box up to 3 layers and a 0.5 box from 4", function()
      -- One layer has no box in either table: the modern definition is kept.
      assert.same(minecraft.block_def("snow[layers=1]"), beta.block_def("snow[layers=1]"))
      for layers = 2, 3 do
        local def = def_of("minecraft:snow[layers=" .. layers .. "]")
        assert.same({}, def.boxes)
        assert.equal("minecraft:snow[layers=" .. layers .. "]@beta173", def.name)
      end
      for layers = 4, 8 do
        assert.same({ { 0, 0, 0, 1, 0.5, 1 } }, def_of("snow[layers=" .. layers .. "]").boxes)
      end
    end)

    it("makes chests, trapped chests and farmland full cubes", function()
      for _, state in ipairs({ "minecraft:chest[facing=east,type=left]",
          "minecraft:trapped_chest", "minecraft:farmland[moisture=7]" }) do
        local def = def_of(state)
        assert.same({ FULL }, def.boxes)
        assert.equal(state:match("^[^%[]+") .. "@beta173", def.name)
      end
    end)

    -- BlockBed: the block bounds, 0.5625 high, for the head and the foot alike; a
    -- small box slides under a modern bed's base between its legs, not under Beta's.
    it("makes every coloured bed a whole cell 0.5625 high, without legs", function()
      for _, state in ipairs{ "minecraft:red_bed[facing=north,occupied=false,part=head]",
          "minecraft:white_bed[facing=east,part=foot]", "minecraft:black_bed" } do
        local def = def_of(state)
        assert.same({ { 0, 0, 0, 1, 0.5625, 1 } }, def.boxes)
        assert.equal(state:match("^[^%[]+") .. "@beta173", def.name)
      end
      assert.same({ minecraft.block_def("minecraft:straw_bed") }, { beta.block_def("minecraft:straw_bed") })
      local bed = "minecraft:red_bed[facing=north,part=head]" -- legs at the north corners
      local probe = bp.Collider(0.4, 0, -1, 0.6, 0.1, -0.5) -- 0.1 high, moving +Z under it
      for _, shapes in ipairs{ minecraft, beta } do
        local w = bp.World()
        w:paste(row{ bed }, 0, 0, 0, shapes)
        local d = 2
        for _, box in ipairs(w:boxes_in(bp.Collider(0, 0, 0, 1, 1, 1))) do
          d = probe:clip_z(box, d)
        end
        assert.equal(shapes == beta and 0.5 or 2, d) -- Beta's bed stops it at z = 0
      end
    end)

    it("makes cake 0.4375 high, eaten from -X two sixteenths a bite", function()
      for bites = 0, 6 do
        local def = def_of("minecraft:cake[bites=" .. bites .. "]")
        assert.same({ { (1 + 2 * bites) / 16, 0, 1 / 16, 15 / 16, 7 / 16, 15 / 16 } }, def.boxes)
        assert.equal("minecraft:cake[bites=" .. bites .. "]@beta173", def.name)
      end
    end)

    it("turns bottom stairs, corners too, into Beta's straight stair of their facing", function()
      -- BlockStairs by metadata 0..3: tall half +X (east), -X (west), +Z (south), -Z (north)
      local want = {
        east = { { 0, 0, 0, 0.5, 0.5, 1 }, { 0.5, 0, 0, 1, 1, 1 } },
        west = { { 0, 0, 0, 0.5, 1, 1 }, { 0.5, 0, 0, 1, 0.5, 1 } },
        south = { { 0, 0, 0, 1, 0.5, 0.5 }, { 0, 0, 0.5, 1, 1, 1 } },
        north = { { 0, 0, 0, 1, 1, 0.5 }, { 0, 0, 0.5, 1, 0.5, 1 } },
      }
      for facing, boxes in pairs(want) do
        for _, shape in ipairs{ "straight", "inner_left", "inner_right", "outer_left", "outer_right" } do
          local def = def_of("minecraft:oak_stairs[facing=" .. facing .. ",half=bottom,shape=" .. shape .. "]")
          assert.same(boxes, def.boxes)
          assert.equal("minecraft:oak_stairs[facing=" .. facing .. "]@beta173", def.name)
        end
      end
      -- upside-down stairs keep the modern definition
      local state = "minecraft:oak_stairs[facing=east,half=top,shape=outer_left]"
      assert.same({ minecraft.block_def(state) }, { beta.block_def(state) })
    end)

    it("lets a box inside a straight stair's back half rise through it, as Beta", function()
      -- Beta's east stair: (0, 0, 0)..(0.5, 0.5, 1) and (0.5, 0, 0)..(1, 1, 1). A box
      -- at x 0.6..0.9, y 0.05..0.45 is inside the back half and rises a whole block;
      -- with the modern slab and back quarter it met the quarter's floor at y 0.5.
      for _, case in ipairs{ { beta, false }, { minecraft, true } } do
        local w = bp.World()
        local def = case[1].block_def("minecraft:oak_stairs[facing=east,half=bottom,shape=straight]")
        w:set_block(0, 0, 0, w:define_block(def))
        local e = w:spawn{ x = 0.75, y = 0.05, z = 0.5, width = 0.3, height = 0.4 }
        local top = select(5, e:box():unpack())
        local _, dy = e:move(0, 1, 0)
        assert.equal(case[2] and 0.5 - top or 1, dy)
      end
    end)

    it("treats an invalid property value as its default and reports a guess", function()
      local def, known = beta.block_def("minecraft:cake[bites=9]")
      assert.is_false(known)
      assert.same({ { 1 / 16, 0, 1 / 16, 15 / 16, 7 / 16, 15 / 16 } }, def.boxes)
      assert.same({ { 0, 0, 0.875, 1, 1, 1 } }, beta.block_def("ladder[facing=up]").boxes)
      assert.same({}, beta.block_def("snow[layers=04]").boxes)
    end)

    -- Below the range is invalid as above it (bites 0..6: BlockCake), and a stair
    -- without a valid facing takes the default state's, north (StairBlock).
    it("treats a negative bites and a missing stair facing as their defaults", function()
      local def, known = beta.block_def("minecraft:cake[bites=-1]")
      assert.is_false(known)
      assert.same({ { 1 / 16, 0, 1 / 16, 15 / 16, 7 / 16, 15 / 16 } }, def.boxes)
      assert.equal("minecraft:cake[bites=0]@beta173", def.name)
      for _, state in ipairs{ "minecraft:oak_stairs", "minecraft:oak_stairs[facing=up,half=bottom]" } do
        def = beta.block_def(state)
        assert.same({ { 0, 0, 0, 1, 1, 0.5 }, { 0, 0, 0.5, 1, 0.5, 1 } }, def.boxes)
        assert.equal("minecraft:oak_stairs[facing=north]@beta173", def.name)
      end
    end)

    -- A waterlogged block whose Beta shape has no properties of its own (fences, chests)
    -- still gets a name apart from the dry one: two definitions, one holding water.
    it("names a waterlogged fence or chest apart from the dry one", function()
      for _, base in ipairs{ "oak_fence", "chest" } do
        local wet = def_of("minecraft:" .. base .. "[waterlogged=true]")
        local dry = def_of("minecraft:" .. base .. "[waterlogged=false]")
        assert.equal("minecraft:" .. base .. "[waterlogged=true]@beta173", wet.name)
        assert.equal("minecraft:" .. base .. "@beta173", dry.name)
        assert.same(dry.boxes, wet.boxes)
      end
    end)

    -- A state outside the minecraft namespace has no Beta shape; its definition is the
    -- modern module's, even when named like a fence.
    it("returns the modern definition for states of another namespace", function()
      for _, state in ipairs{ "mymod:oak_fence", "mymod:chest[facing=north]" } do
        assert.same({ minecraft.block_def(state) }, { beta.block_def(state) })
      end
    end)

    it("returns the modern definition for every other state", function()
      for _, state in ipairs({ "minecraft:stone", "minecraft:oak_slab[type=bottom]",
          "minecraft:birch_stairs[facing=east,half=top,shape=straight,waterlogged=false]",
          "minecraft:soul_sand", "minecraft:ice", "minecraft:cactus", "minecraft:straw_bed[part=head]",
          "minecraft:oak_door[facing=north,half=lower,hinge=left,open=false]",
          "minecraft:water[level=0]", "minecraft:cobweb", "minecraft:unknown_thing" }) do
        assert.same({ minecraft.block_def(state) }, { beta.block_def(state) })
      end
    end)

    it("raises for a state that is not a string", function()
      assert.has_error(function() beta.block_def(1) end,
        "bad argument #1 to 'block_def' (string expected, got number)")
    end)
  end)

  describe("with World:paste and the Beta rules", function()
    it("stops a player beside a lone fence post that the modern shape lets by", function()
      -- The post is x 0.375..0.625; a box at x 0.65..1.25 passes it, but not
      -- Beta's whole-cell fence, which it meets at z = 3 (centre 3 - 0.3).
      local fence = "minecraft:oak_fence"
      local e = walk_z(world_with(fence, beta), 0.95, 40)
      assert.near(3 - HALF_WIDTH, e.z, 1e-9)
      assert.is_true(e:box().z2 <= 3)
      assert.is_true(walk_z(world_with(fence), 0.95, 40).z > 5)
    end)

    it("stops a player at a Beta ladder's 0.125 face and lets it climb", function()
      local ladder = "minecraft:ladder[facing=north]"
      local w = world_with(ladder, beta, 8)
      w:fill(0, 64, 4, 0, 72, 4, "stone") -- the wall the ladder hangs on
      local e = walk_z(w, 0.5, 30)
      assert.near(3.875 - HALF_WIDTH, e.z, 1e-9)
      assert.is_true(e.y > 65) -- pressed against a ladder, it climbs
      local m = world_with(ladder, nil, 8)
      m:fill(0, 64, 4, 0, 72, 4, "stone")
      assert.near(3.8125 - HALF_WIDTH, walk_z(m, 0.5, 30).z, 1e-9)
    end)

    it("lands a falling player on Beta's box tops", function()
      -- Each pair: the Beta top, then the modern top.
      local cases = {
        { "minecraft:snow[layers=3]", 64, 64.25 },
        { "minecraft:snow[layers=5]", 64.5, 64.5 },
        { "minecraft:chest[facing=north]", 65, 64.875 },
        { "minecraft:farmland[moisture=0]", 65, 64.9375 },
        { "minecraft:cake[bites=0]", 64.4375, 64.5 },
      }
      for _, c in ipairs(cases) do
        assert.equal(c[2], landing_y(c[1], beta), c[1])
        assert.equal(c[3], landing_y(c[1]), c[1])
      end
    end)

    it("keeps the Beta and the modern types apart in one world", function()
      local w = bp.World()
      local states = { "minecraft:ladder[facing=north]", "minecraft:stone" }
      w:paste(row(states), 0, 0, 0)
      w:paste(row(states), 0, 1, 0, beta)
      local function name_at(x, y, z) return w:block_info(w:get_block(x, y, z)).name end
      assert.equal("minecraft:ladder[facing=north]", name_at(0, 0, 0))
      assert.equal("minecraft:ladder[facing=north]@beta173", name_at(0, 1, 0))
      assert.equal("minecraft:stone", name_at(1, 1, 0))
      assert.equal(w:get_block(1, 0, 0), w:get_block(1, 1, 0)) -- shared: same shape
      local near = w:boxes_in(bp.Collider(0, 1, 0, 1, 2, 1))
      assert.equal(1, #near)
      assert.same({ 0, 1, 0.875, 1, 2, 1 }, { near[1]:unpack() })
    end)
  end)
end)
