-- luacheck: std +busted
-- One-way blocks and colliders (define_block's and add_collider's one_way): a box
-- blocks a mover's move only when the mover's box at the start of the move lies
-- wholly beyond the box's face (solid.c). A jump up through a platform follows the
-- trajectory of an empty world until it lands exactly on top; a walker passes
-- sideways as through air; faces on every axis; drop_through_sneaking; the sneak edge
-- guard; colliders; both resolvers under both rule models; no entity ever ends inside
-- a block that is not one-way; the errors. Source: our own (docs/mechanics.md).
local bp = require "blockphys"
local H = require "helpers.world"

local TOP = 1.0625 -- the platform: cell y = 1, a 1/16 slab at its floor

-- Every rule model and resolver, with the dt its steps take.
local CASES = {
  { "beta173", "axis" }, { "beta173", "swept" }, { "mccpp", "axis" }, { "mccpp", "swept" },
}
local function rules_of(c, extra)
  local r = bp.rules[c[1]] { resolver = c[2] }
  for k, v in pairs(extra or {}) do r[k] = v end
  return r
end
local function dt_of(c) return c[1] == "mccpp" and 1 / 20 or nil end

-- A stone floor (top y = 0) over [-12, 12]^2, and the platform over x, z in [-2, 2]
-- when `platform` is "block" (one-way block type) or "collider" (one-way collider).
local function world_with(platform, face)
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "plat", boxes = { { 0, 0, 0, 1, 1 / 16, 1 } }, one_way = face or "up" }
  w:fill(-12, -1, -12, 12, -1, 12, "stone")
  if platform == "block" then
    w:fill(-2, 1, -2, 2, 1, 2, "plat")
  elseif platform == "collider" then
    w:add_collider(bp.Collider(-2, 1, -2, 3, TOP, 3), { one_way = face or "up" })
  end
  return w
end

-- y after each tick of a jump held for the first three ticks (40 ticks).
local function jump_track(w, c)
  local e = w:spawn{ x = 0.5, y = 0, z = 0.5, rules = rules_of(c) }
  local ys = {}
  for i = 1, 40 do
    e:set_input(0, 0, 0, i <= 3)
    w:step(dt_of(c))
    ys[i] = e.y
  end
  return ys, e
end

describe("one-way blocks", function()
  for _, platform in ipairs({ "block", "collider" }) do
    for _, c in ipairs(CASES) do
      it(("a jump goes up through a one-way %s and lands on it (%s, %s)"):format(platform, c[1], c[2]), function()
        local free = jump_track(world_with(nil), c)
        local ys, e = jump_track(world_with(platform), c)
        -- the same trajectory as in open air while rising and until the feet pass the top
        local landed
        for i = 1, 40 do
          if ys[i] ~= free[i] then landed = i break end
        end
        assert.is_truthy(landed, "the jump never met the platform")
        assert.is_true(free[landed] < TOP and free[landed - 1] >= TOP)
        for i = landed, 40 do
          if c[2] == "axis" then
            assert.equal(TOP, ys[i]) -- the per-axis clip stops exactly on the face
          else
            assert.is_true(ys[i] >= TOP and ys[i] - TOP < 1e-3, ys[i]) -- back_off above it
          end
        end
        assert.is_true(e.on_ground)
      end)
    end
  end

  for _, c in ipairs(CASES) do
    it(("a walker passes sideways through one-way cubes as through air (%s, %s)"):format(c[1], c[2]), function()
      local function walk(w)
        local e = w:spawn{ x = -4.5, y = 0, z = 0.5, rules = rules_of(c) }
        local xs = {}
        for i = 1, 60 do
          e:set_input(1, 0, -90) -- yaw -90 faces +X
          w:step(dt_of(c))
          xs[i] = e.x
        end
        return xs, e
      end
      local w = world_with(nil)
      w:define_block{ name = "cube", one_way = "up" }
      w:fill(-1, 0, -2, 1, 1, 2, "cube") -- a wall two blocks high across the path
      local xs, e = walk(w)
      assert.same(walk(world_with(nil)), xs)
      assert.is_true(xs[60] > 2, xs[60])
      assert.equal(0, e.y)
    end)
  end

  it("faces on every axis stop only moves coming from their open side", function()
    -- an "east" wall (open toward +X) at x in [0, 1]: coming from the east the walker
    -- stops at x = 1 + half its width; coming from the west it walks through
    local w = world_with(nil, "east")
    w:define_block{ name = "east_wall", one_way = "east" }
    w:fill(0, 0, -3, 0, 2, 3, "east_wall")
    local from_east = w:spawn{ x = 4.5, y = 0, z = 0.5 }
    local from_west = w:spawn{ x = -4.5, y = 0, z = 2.5 }
    for _ = 1, 60 do
      from_east:set_input(1, 0, 90)   -- facing -X
      from_west:set_input(1, 0, -90)  -- facing +X
      w:step()
    end
    assert.equal(1, from_east:box().x1) -- the box's west face rests on x = 1
    assert.is_true(from_west.x > 1.5, from_west.x)
    -- a "down" ceiling (open toward -Y) at y = 2: a jump bumps its head; from above,
    -- an entity falls through it
    w = world_with(nil)
    w:define_block{ name = "ceiling", one_way = "down" }
    w:fill(-2, 2, -2, 2, 2, 2, "ceiling")
    local jumper = w:spawn{ x = 0.5, y = 0, z = 0.5 }
    local faller = w:spawn{ x = -1.5, y = 4, z = -1.5 }
    local top = 0
    for i = 1, 40 do
      jumper:set_input(0, 0, 0, i <= 3)
      w:step()
      top = math.max(top, jumper.y + jumper.height)
    end
    assert.is_true(top <= 2 and top > 1.99, top)
    assert.equal(0, faller.y)
  end)

  for _, c in ipairs(CASES) do
    it(("drop_through_sneaking lets a sneaking entity drop through an up face (%s, %s)"):format(c[1], c[2]),
      function()
        local w = world_with("block")
        local stay = w:spawn{ x = -1.5, y = TOP, z = 0.5, rules = rules_of(c) }
        local drop = w:spawn{ x = 1.5, y = TOP, z = 0.5, rules = rules_of(c, { drop_through_sneaking = true }) }
        local walk = w:spawn{ x = 0.5, y = TOP, z = -1.5, rules = rules_of(c, { drop_through_sneaking = true }) }
        assert.is_false(stay.rules.drop_through_sneaking)
        for _ = 1, 40 do
          stay:set_input(0, 0, 0, false, true)
          drop:set_input(0, 0, 0, false, true)
          walk:set_input(0, 0, 0, false, false) -- the rule alone does nothing
          w:step(dt_of(c))
        end
        -- exactly on the faces under the per-axis resolver, within its back_off above
        -- them under the swept one
        local slack = c[2] == "swept" and 1e-3 or 0
        assert.is_true(stay.y >= TOP and stay.y - TOP <= slack, stay.y)
        assert.is_true(drop.y >= 0 and drop.y <= slack, drop.y)
        assert.is_true(walk.y >= TOP and walk.y - TOP <= slack, walk.y)
      end)
  end

  it("the sneak edge guard holds a sneaking entity on a one-way platform's edge", function()
    local w = world_with(nil)
    w:set_block(0, 1, 0, "plat")
    local e = w:spawn{ x = 0.5, y = TOP, z = 0.5 }
    for _ = 1, 40 do
      e:set_input(1, 0, -90, false, true)
      w:step()
    end
    assert.equal(TOP, e.y)
    assert.is_true(e.x < 1 + 0.30000001192092896, e.x) -- its box still over the cell
  end)

  it("never leaves an entity inside a block that is not one-way (random walks)", function()
    for _, c in ipairs(CASES) do
      local w = H.world()
      w:define_block{ name = "oneway_up", boxes = { { 0, 0.5, 0, 1, 1, 1 } }, one_way = "up" }
      w:define_block{ name = "oneway_side", one_way = "north" }
      H.terrain(w, 7, 10)
      local rand = H.rng(11)
      for _ = 1, 25 do
        local x, y, z = rand(10) - 1, rand(4), rand(10) - 1
        if w:get_block(x, y, z) == 0 then w:set_block(x, y, z, rand(2) == 1 and "oneway_up" or "oneway_side") end
      end
      w:add_collider(bp.Collider(2, 2.5, 2, 6, 2.75, 6), { one_way = "up" })
      local es = {}
      for _ = 1, 6 do
        local x, y, z = w:free_position(rand(10) - 0.5, 6, rand(10) - 0.5, 0.6, 1.8, 4)
        es[#es + 1] = w:spawn{ x = x, y = y, z = z, rules = rules_of(c) }
      end
      for _ = 1, 200 do
        H.random_input(es, rand)
        w:step(dt_of(c))
        for _, e in ipairs(es) do
          assert.equal(0, #w:boxes_in(e:box()), ("%s %s at %s %s %s"):format(c[1], c[2], e.x, e.y, e.z))
        end
      end
    end
  end)

  describe("definitions and queries", function()
    it("block_info gives the face and the boxes; rays hit one-way boxes, box queries do not", function()
      local w = world_with("block")
      local info = w:block_info("plat")
      assert.equal("up", info.one_way)
      assert.same({ { 0, 0, 0, 1, 1 / 16, 1 } }, info.boxes)
      assert.is_nil(w:block_info("stone").one_way)
      local hit = w:raycast(0.5, 5, 0.5, 0, -1, 0, 10)
      assert.same({ 1, TOP }, { hit.y, hit.hy })
      assert.equal(0, #w:boxes_in(bp.Collider(0, 1, 0, 1, 2, 1)))
      local t = w:sweep(bp.Collider(0.2, 3, 0.2, 0.8, 4, 0.8), 0, -3, 0)
      assert.equal(1, t)
    end)

    it("checks one_way in define_block and add_collider", function()
      local w = bp.World()
      for _, v in ipairs({ "sideways", true, 3 }) do
        H.raises_here('define_block: field \'one_way\' must be "up", "down", "north", "south", "east" or "west"',
          function() w:define_block{ name = "p", one_way = v } end)
      end
      assert.is_nil(w:block_id("p"))
      local box = bp.Collider(0, 0, 0, 1, 1, 1)
      H.raises_here('add_collider: field \'one_way\' must be "up", "down", "north", "south", "east" or "west"',
        function() w:add_collider(box, { one_way = 1 }) end)
      H.raises_here("add_collider: unknown field 'oneway'", function() w:add_collider(box, { oneway = "up" }) end)
      H.raises_here("bad argument #2 to 'add_collider' (table expected, got number)",
        function() w:add_collider(box, 5) end)
      assert.equal(0, w:stats().colliders)
      -- a removed one-way collider no longer counts; its slot comes back blocking
      local h = w:add_collider(box, { one_way = "up" })
      w:remove_collider(h)
      w:add_collider(box)
      assert.equal(1, #w:boxes_in(bp.Collider(0, 0, 0, 1, 1, 1)))
    end)
  end)
end)
