-- The collision tests of other projects, restated case by case with our API, so that
-- we know where blockphys agrees and where its documented conventions differ. Each
-- `it` names the peer's test file and case; the scenes and expected numbers are the
-- peers' (translated into our coordinates), the code is ours.
--
-- Where we differ by one of our documented conventions, the spec asserts OUR answer
-- and a "DIFFERS" comment names the convention (docs/mccpp.md, "The swept resolver",
-- `c:sweep`, `world:sweep`, `world:raycast`):
--   [still]    touching on a still axis never hits;
--   [overlap]  boxes that overlap at the start report no hit (nothing pushes out);
--   [touch-in] touching and moving into a box hits at t = 0;
--   [instant]  entry = exit (an edge grazed, touching and moving apart) is no hit;
--   [xyz]      time ties: a face before an edge or corner, then axis X, Y, Z;
--   [ray]      a ray hits a box when it passes through the box's open interior, a ray
--              starting inside hits at distance 0, a face at max_distance counts.
-- Other differences (peer features we do not have, peer quirks) say so too.
--
-- The peers' resolvers end exactly touching what they hit; ours backs off
-- `back_off` x the pass's displacement. Where a peer pins a resolved position, the
-- case runs our swept resolver with back_off = 0 (EXACT) and compares within 1e-9;
-- step assist is off (none of these peers steps up in the cases translated).
local bp = require "blockphys"
local compat = require "helpers.compat"
local H = require "helpers.world"
local C = bp.Collider

local TOL = 1e-9
local EXACT = bp.rules.mccpp { step_height = 0, back_off = 0 }

local function near3(want, got, tol, msg)
  for i = 1, 3 do
    assert.is_near(want[i], got[i], tol or TOL, (msg or "") .. " axis " .. i)
  end
end

-- world:sweep packed: t, the allowed displacement { ax, ay, az }, the hit table.
local function sweep(w, box, v)
  local t, ax, ay, az, hit = w:sweep(box, v[1], v[2], v[3])
  return t, { ax, ay, az }, hit
end

local function fmt(v)
  return ("(%g, %g, %g)"):format(v[1], v[2], v[3])
end

local function normal(hit)
  return { hit.nx, hit.ny, hit.nz }
end

-- A slide written on world:sweep (a resolver for zero-size boxes, which entities
-- cannot be): move to the first hit exactly touching it, drop the hit axis, go on
-- with the rest; at most three hits. Returns the box's final min corner.
local function slide(w, box, v)
  local b = { box:unpack() }
  local d = { v[1], v[2], v[3] }
  for _ = 1, 3 do
    local _, moved, hit = sweep(w, C(b[1], b[2], b[3], b[4], b[5], b[6]), d)
    for i = 1, 3 do
      b[i], b[i + 3] = b[i] + moved[i], b[i + 3] + moved[i]
      d[i] = d[i] - moved[i]
    end
    if not hit then break end
    local n = normal(hit)
    for i = 1, 3 do
      if n[i] ~= 0 then d[i] = 0 end
    end
  end
  return { b[1], b[2], b[3] }
end

--------------------------------------------------------------------------------------
-- Luanti src/unittest/test_collision.cpp
-- axisAlignedCollision(static, moving, speed, &dtime): the axis (0, 1, 2) of the first
-- collision within dtime (which it sets to the collision time) or -1. Ours: the
-- moving box's Collider:sweep by speed x dtime: t in [0, 1], the time is t x dtime.
--------------------------------------------------------------------------------------
describe("Luanti src/unittest/test_collision.cpp", function()
  local B = { -3, -2, -1, 0, 1, 2, 3 } -- the static box's corner, GENERATE()d per axis

  -- fn(bx, by, bz) for each of the 343 static box positions
  local function each_position(fn)
    for _, bx in ipairs(B) do
      for _, by in ipairs(B) do
        for _, bz in ipairs(B) do fn(bx, by, bz) end
      end
    end
  end

  -- axis index (0..2) and time of a Collider:sweep over dtime, -1 when no hit
  local function aac(s, m, speed, dtime)
    local t, nx, ny, nz = m:sweep(s, speed[1] * dtime, speed[2] * dtime, speed[3] * dtime)
    if nx == 0 and ny == 0 and nz == 0 then return -1 end
    return nx ~= 0 and 0 or ny ~= 0 and 1 or 2, t * dtime
  end

  describe("unit cube", function()
    local function unit(bx, by, bz)
      return C(bx, by, bz, bx + 1, by + 1, bz + 1)
    end

    it("-X side: moving towards the target on X collides on X at dtime 1", function()
      each_position(function(bx, by, bz)
        local axis, time = aac(unit(bx, by, bz), C(bx - 2, by, bz, bx - 1, by + 1, bz + 1), { 1, 0, 0 }, 1)
        assert.are.same({ 0, 1 }, { axis, time }) -- an entry at exactly t = 1 is a hit
      end)
    end)

    it("-X side: moving away on X never collides", function()
      each_position(function(bx, by, bz)
        assert.are.equal(-1, aac(unit(bx, by, bz), C(bx - 2, by, bz, bx - 1, by + 1, bz + 1), { -1, 0, 0 }, 1))
      end)
    end)

    it("-X side: no overlap on X or Y, moving on X, never collides", function()
      each_position(function(bx, by, bz)
        assert.are.equal(-1,
          aac(unit(bx, by, bz), C(bx - 2, by + 1.5, bz, bx - 1, by + 2.5, bz + 1), { 1, 0, 0 }, 1))
      end)
    end)

    it("-X side: no overlap on X or Y, the right speeds on X and Y collide on X at dtime 3", function()
      each_position(function(bx, by, bz)
        local axis, time = aac(unit(bx, by, bz), C(bx - 2, by - 1.5, bz, bx - 1.5, by + 0.5, bz + 1),
          { 0.5, 0.1, 0 }, 3)
        assert.are.equal(0, axis)
        assert.is_near(3, time, TOL)
      end)
    end)

    it("+X side: moving towards the target on X collides on X at dtime 1", function()
      each_position(function(bx, by, bz)
        local axis, time = aac(unit(bx, by, bz), C(bx + 2, by, bz, bx + 3, by + 1, bz + 1), { -1, 0, 0 }, 1)
        assert.are.same({ 0, 1 }, { axis, time })
      end)
    end)

    it("+X side: moving away on X never collides", function()
      each_position(function(bx, by, bz)
        assert.are.equal(-1, aac(unit(bx, by, bz), C(bx + 2, by, bz, bx + 3, by + 1, bz + 1), { 1, 0, 0 }, 1))
      end)
    end)

    it("+X side: no overlap on X or Z, moving on X, never collides", function()
      each_position(function(bx, by, bz)
        assert.are.equal(-1,
          aac(unit(bx, by, bz), C(bx + 2, by, bz + 1.5, bx + 3, by + 1, bz + 3.5), { -1, 0, 0 }, 1))
      end)
    end)

    it("+X side: the right speeds on X and Y collide on Y first, at dtime 2.5", function()
      each_position(function(bx, by, bz)
        local axis, time = aac(unit(bx, by, bz), C(bx + 2, by - 1.5, bz, bx + 2.5, by - 0.5, bz + 1),
          { -0.5, 0.2, 0 }, 2.51)
        assert.are.equal(1, axis)
        assert.is_near(2.5, time, TOL)
      end)
    end)

    it("+X side: the right speeds on X and Y collide on X, at dtime 2", function()
      each_position(function(bx, by, bz)
        local axis, time = aac(unit(bx, by, bz), C(bx + 2, by - 1.5, bz, bx + 2.5, by - 0.5, bz + 1),
          { -0.5, 0.3, 0 }, 2.1)
        assert.are.equal(0, axis)
        assert.is_near(2, time, TOL)
      end)
    end)
  end)

  describe("2x2x2 cube, near its corners (which axis collides first)", function()
    local function cube(bx, by, bz)
      return C(bx, by, bz, bx + 2, by + 2, bz + 2)
    end
    local third, seventh = -1 / 3, 1 / 7

    for axis = 0, 2 do
      local name = ("XYZ"):sub(axis + 1, axis + 1)
      it(("collides on %s near the (+X,+Y,+Z) corner at dtime 0.9"):format(name), function()
        each_position(function(bx, by, bz)
          local lo = { 2.29, 2.29, 2.29 }
          lo[axis + 1] = 2.3 -- the latest entry: 0.3 / (1/3) against 0.29 / (1/3)
          local m = C(bx + lo[1], by + lo[2], bz + lo[3], bx + 4.2, by + 4.2, bz + 4.2)
          local got, time = aac(cube(bx, by, bz), m, { third, third, third }, 1)
          assert.are.equal(axis, got)
          assert.is_near(0.9, time, TOL)
        end)
      end)

      it(("collides on %s near the (-X,-Y,-Z) corner at dtime 16.1"):format(name), function()
        each_position(function(bx, by, bz)
          local hi = { -2.29, -2.29, -2.29 }
          hi[axis + 1] = -2.3
          local m = C(bx - 4.2, by - 4.2, bz - 4.2, bx + hi[1], by + hi[2], bz + hi[3])
          local got, time = aac(cube(bx, by, bz), m, { seventh, seventh, seventh }, 17)
          assert.are.equal(axis, got)
          assert.is_near(16.1, time, TOL)
        end)
      end)
    end
  end)

  -- collisionMoveSimple over a 16 x 16 floor of stone nodes at y = 0. Luanti's nodes
  -- are centred on integer positions (node n spans n - 0.5 .. n + 0.5), ours start
  -- there: every Luanti position is ours - 0.5, and node (x, y, z) is our cell
  -- (x, y, z). The box (-0.1, 0, -0.1)..(0.1, 1.4, 0.1) about the position is an
  -- entity 0.2 wide and 1.4 high. Luanti moves by the average speed over dtime
  -- (speed + accel dtime / 2) x dtime; we pass that displacement to e:move_swept.
  describe("Test simple moving collision.", function()
    local function floor_world()
      local w = bp.World()
      w:define_block { name = "stone" }
      w:fill(0, 0, 0, 15, 0, 15, "stone")
      return w
    end
    local function spawn(w, lx, ly, lz) -- at Luanti position (lx, ly, lz)
      return w:spawn { x = lx + 0.5, y = ly + 0.5, z = lz + 0.5, width = 0.2, height = 1.4, rules = EXACT }
    end
    local function displacement(speed, accel, dtime)
      local d = {}
      for i = 1, 3 do d[i] = (speed[i] + accel[i] * 0.5 * dtime) * dtime end
      return d
    end

    it("Simple movement with accel: (4, 1, 4) rises 0.5, no collision", function()
      local w = floor_world()
      local e = spawn(w, 4, 1, 4)
      near3({ 0, 0.5, 0 }, { e:move_swept(compat.unpack_table(displacement({ 0, 0, 0 }, { 0, 1, 0 }, 1))) })
      assert.is_false(e.on_ground or e.collided_vertically or e.collided_horizontally)
    end)

    it("Standing on ground: no movement, a Y collision with node (0,0,0), touching ground", function()
      -- [touch-in] agrees: touching the floor and moving into it is a hit at t = 0
      local w = floor_world()
      local e = spawn(w, 0, 0.5, 0)
      e.vy = -1
      local d = displacement({ 0, 0, 0 }, { 0, -9.81, 0 }, 0.05)
      local t, moved, hit = sweep(w, e:box(), d)
      assert.are.equal(0, t)
      assert.are.same({ 0, 0, 0, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
      assert.are.same({ 0, 0, 0 }, moved)
      assert.are.same({ 0, 0, 0 }, { e:move_swept(compat.unpack_table(d)) })
      assert.is_true(e.on_ground and e.collided_vertically)
      assert.are.equal(0, e.vy)
    end)

    it("Glitched into ground: 0.001 inside the floor (Luanti moves it back out to 0.5)", function()
      -- DIFFERS [overlap]: the box starts overlapping node (0,0,0); we report no hit and
      -- never push out of blocks, so it sinks by the whole displacement, not grounded.
      local w = floor_world()
      local e = spawn(w, 0, 0.499, 0)
      local d = displacement({ 0, 0, 0 }, { 0, -9.81, 0 }, 0.05)
      local t, _, hit = sweep(w, e:box(), d)
      assert.are.equal(1, t)
      assert.is_nil(hit)
      near3(d, { e:move_swept(compat.unpack_table(d)) })
      assert.is_false(e.on_ground)
    end)

    it("Falling on ground: from 1.2345 at speed -3, a Y collision with node (0,0,0), speed 0", function()
      -- Luanti leaves the position unasserted (its linear collision lands early); ours
      -- lands exactly on the floor (back_off 0): feet at 1, Luanti's 0.5.
      local w = floor_world()
      local e = spawn(w, 0, 1.2345, 0)
      e.vy = -3
      local d = displacement({ 0, -3, 0 }, { 0, -9.81, 0 }, 0.5)
      local _, _, hit = sweep(w, e:box(), d)
      assert.are.same({ 0, 0, 0, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
      e:move_swept(compat.unpack_table(d))
      assert.is_near(1, e.y, TOL)
      assert.is_true(e.on_ground)
      assert.are.equal(0, e.vy)
    end)

    it("Jumping on ground: rises for 0.2 s without collision, then lands on node (0,0,0)", function()
      local w = floor_world()
      local e = spawn(w, 0, 0.5, 0)
      local speed, accel = { 0, 2, 0 }, { 0, -9.81, 0 }
      near3(displacement(speed, accel, 0.2), { e:move_swept(compat.unpack_table(displacement(speed, accel, 0.2))) })
      assert.is_false(e.on_ground or e.collided_vertically)
      speed[2] = speed[2] + accel[2] * 0.2
      local d = displacement(speed, accel, 0.5)
      local _, _, hit = sweep(w, e:box(), d)
      assert.are.same({ 0, 0, 0, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
      e:move_swept(compat.unpack_table(d))
      assert.is_true(e.on_ground)
      assert.is_near(1, e.y, TOL)
    end)

    it("Moving over ground, no gravity: slides (-1.6, 0, -1.7), no collision", function()
      -- [still] agrees: sliding on the floor's top face never hits it
      local w = floor_world()
      local e = spawn(w, 0, 0.5, 0)
      near3({ -1.6, 0, -1.7 }, { e:move_swept(-1.6, 0, -1.7) })
      assert.is_false(e.on_ground or e.collided_vertically or e.collided_horizontally)
    end)

    it("Moving over ground, with gravity: ends at (4.5, 0.5, 5.4), one Y collision with node (5,0,5)", function()
      -- The box straddles four floor nodes (Luanti x = z = 5.5, on a seam): all are met
      -- at t = 0, face Y; [xyz] ties go by cell order: node (5,0,5), as Luanti's first.
      local w = floor_world()
      local e = spawn(w, 5.5, 0.5, 5.5)
      local d = displacement({ -1, 0, -0.1 }, { 0, -9.81, 0 }, 1)
      local t, _, hit = sweep(w, e:box(), d)
      assert.are.equal(0, t)
      assert.are.same({ 5, 0, 5, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
      e:move_swept(compat.unpack_table(d))
      near3({ 4.5 + 0.5, 0.5 + 0.5, 5.4 + 0.5 }, { e:position() })
      assert.is_true(e.on_ground)
    end)

    it("Not moving never collides", function()
      local w = floor_world()
      local e = spawn(w, 0, -100, 0)
      assert.are.same({ 0, 0, 0 }, { e:move_swept(0, 0, 0) })
      assert.is_false(e.on_ground or e.collided_vertically or e.collided_horizontally)
    end)

    it("Collision in ignore: moving through unloaded nodes (Luanti: speed zeroed, no collision)", function()
      -- DIFFERS (not a swept-test convention: our world model): blockphys has no
      -- unloaded ("ignore") cells, every cell never set is air; the box moves on and
      -- keeps its speed.
      local w = floor_world()
      local e = spawn(w, 0, -100, 0)
      e.vx = 5
      near3({ 5 / 60, 0, 0 }, { e:move_swept(5 / 60, 0, 0) })
      assert.are.equal(5, e.vx)
    end)
  end)
end)

--------------------------------------------------------------------------------------
-- bump-3dpd (the 3D port of bump.lua): spec/cube_spec.lua, spec/responses_spec.lua,
-- spec/World_spec.lua. bump's cubes are (x, y, z, w, h, d): the box x .. x + w, ...;
-- a move is given by the goal position (displacement = goal - start).
--------------------------------------------------------------------------------------
describe("bump-3dpd", function()
  local function cube(x, y, z, w, h, d)
    return C(x, y, z, x + w, y + h, z + d)
  end

  -- detectCollision(x,y,z,w,h,d, ox,oy,oz,ow,oh,od, goalX,goalY,goalZ) as Collider:sweep
  local function detect(x, y, z, w, h, d, ox, oy, oz, ow, oh, od, gx, gy, gz)
    return cube(x, y, z, w, h, d):sweep(cube(ox, oy, oz, ow, oh, od), gx - x, gy - y, gz - z)
  end

  describe("spec/cube_spec.lua detectCollision", function()
    it("when item is static, when itemCube does not intersect otherCube: nil", function()
      assert.are.same({ 1, 0, 0, 0 }, { detect(0, 0, 0, 1, 1, 1, 5, 5, 5, 1, 1, 1, 0, 0, 0) })
    end)

    it("when item is static, when itemCube overlaps otherCube: overlaps, ti = -2, normal (0, -1, 0)", function()
      -- DIFFERS [overlap]: overlapping boxes report no hit (and a still box never hits)
      assert.are.same({ 1, 0, 0, 0 }, { detect(0, 0, 0, 7, 6, 8, 5, 5, 0, 1, 1, 1, 0, 0, 0) })
      -- the overlap itself is a query of ours: boxes_in lists the box it overlaps
      local w = bp.World()
      w:add_collider(cube(5, 5, 0, 1, 1, 1))
      assert.are.equal(1, #w:boxes_in(cube(0, 0, 0, 7, 6, 8)))
    end)

    it("when item is moving, when itemCube does not intersect otherCube: nil", function()
      assert.are.same({ 1, 0, 0, 0 }, { detect(0, 0, 0, 1, 1, 1, 5, 5, 5, 1, 1, 1, 3, 3, 3) })
    end)

    it("detects collisions from the left: ti = 0.6, normal (-1, 0, 0)", function()
      -- the item also touches the other's top on Y and Z and moves into it there
      -- ([touch-in], entry 0), X enters later: X
      assert.are.same({ 0.6, -1, 0, 0 }, { detect(1, 1, 1, 1, 1, 1, 5, 0, 0, 1, 1, 1, 6, 0, 0) })
    end)

    it("detects collisions from the right: ti = 0.8, normal (1, 0, 0)", function()
      assert.are.same({ 0.8, 1, 0, 0 }, { detect(6, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1) })
    end)

    it("detects collisions from the top: ti = 0.6, normal (0, -1, 0)", function()
      assert.are.same({ 0.6, 0, -1, 0 }, { detect(0, 0, 0, 1, 1, 1, 0, 4, 0, 1, 1, 1, 0, 5, 0) })
    end)

    it("detects collisions from the bottom: ti = 0.6, normal (0, 1, 0)", function()
      assert.are.same({ 0.6, 0, 1, 0 }, { detect(0, 4, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, -1, 0) })
    end)

    it("does not get caught by nasty corner cases", function()
      -- [instant] agrees: touching along the edge x = 16, y = 16, moving away on X and
      -- into it on Y: entry = exit = 0, no hit
      assert.are.same({ 1, 0, 0, 0 }, { detect(0, 16, 0, 16, 16, 16, 16, 0, 0, 16, 16, 16, -1, 15, 15) })
    end)
  end)

  describe("spec/responses_spec.lua", function()
    local OTHER = cube(0, 0, 0, 8, 8, 8)

    -- bump's touch: where the item stops touching the other, and the normal; ours:
    -- world:sweep against the other as a collider.
    local function touch(x, y, z, w, h, d, gx, gy, gz)
      local world = bp.World()
      world:add_collider(OTHER)
      local t, moved, hit = sweep(world, cube(x, y, z, w, h, d), { gx - x, gy - y, gz - z })
      if not hit then return t end
      return { x + moved[1], y + moved[2], z + moved[3], hit.nx, hit.ny, hit.nz }
    end

    -- bump's slide: where the item ends; ours: e:move_swept (EXACT) of a 2 x 2 x 2 entity
    local function bump_slide(x, y, z, gx, gy, gz)
      local world = bp.World()
      world:add_collider(OTHER)
      local e = world:spawn { x = x + 1, y = y, z = z + 1, width = 2, height = 2, rules = EXACT }
      e:move_swept(gx - x, gy - y, gz - z)
      local b = { e:box():unpack() }
      return { b[1], b[2], b[3] }
    end

    it("touch, on overlaps, when there is no movement: the minimum displacement out (27 cubes)", function()
      -- DIFFERS [overlap]: a still box overlapping another reports no hit (t = 1)
      for _, z in ipairs { -1, 3, 7 } do
        for _, y in ipairs { -1, 3, 7 } do
          for _, x in ipairs { -1, 3, 7 } do
            assert.are.equal(1, touch(x, y, z, 2, 2, 2, x, y, z))
          end
        end
      end
    end)

    it("touch, on overlaps, when the item is moving: out against the movement (14 moves)", function()
      -- DIFFERS [overlap]: the item [3, 5]^3 starts inside the other: no hit
      for _, g in ipairs {
        { 4, 3, 3 }, { 2, 3, 3 }, { 3, 4, 3 }, { 3, 2, 3 }, { 3, 3, 4 }, { 3, 3, 2 },
        { 4, 4, 3 }, { 2, 2, 3 }, { 3, 4, 4 }, { 3, 2, 2 }, { 4, 3, 4 }, { 2, 3, 2 },
        { 4, 4, 4 }, { 2, 2, 2 },
      } do
        assert.are.equal(1, touch(3, 3, 3, 2, 2, 2, g[1], g[2], g[3]))
      end
    end)

    it("touch, on tunnels: where the item starts touching the other, and the normal", function()
      assert.are.same({ -2, 3, 3, -1, 0, 0 }, touch(-3, 3, 3, 2, 2, 2, 3, 3, 3))
      assert.are.same({ 8, 3, 3, 1, 0, 0 }, touch(9, 3, 3, 2, 2, 2, 3, 3, 3))
      assert.are.same({ 3, -2, 3, 0, -1, 0 }, touch(3, -3, 3, 2, 2, 2, 3, 3, 3))
      assert.are.same({ 3, 8, 3, 0, 1, 0 }, touch(3, 9, 3, 2, 2, 2, 3, 3, 3))
      assert.are.same({ 3, 3, -2, 0, 0, -1 }, touch(3, 3, -3, 2, 2, 2, 3, 3, 3))
      assert.are.same({ 3, 3, 8, 0, 0, 1 }, touch(3, 3, 9, 2, 2, 2, 3, 3, 3))
    end)

    it("slide, slides on overlaps (6 moves)", function()
      -- DIFFERS [overlap]: bump pushes the item out and slides; ours starts inside the
      -- other, reports no hit and moves the whole way to the goal
      for _, g in ipairs { { 5, 4, 4 }, { 4, 5, 4 }, { 4, 4, 5 }, { 1, 2, 2 }, { 2, 1, 2 }, { 2, 2, 1 } } do
        near3(g, bump_slide(3, 3, 3, g[1], g[2], g[3]))
      end
    end)

    it("slide, slides over tunnels (6 moves)", function()
      near3({ 8, 1, 1 }, bump_slide(10, 10, 10, 4, 1, 1))
      near3({ 1, 8, 1 }, bump_slide(10, 10, 10, 1, 4, 1))
      near3({ 1, 1, 8 }, bump_slide(10, 10, 10, 1, 1, 4))
      near3({ -2, 5, 5 }, bump_slide(-4, -4, -4, 2, 5, 5))
      near3({ 5, -2, 5 }, bump_slide(-4, -4, -4, 5, 2, 5))
      near3({ 5, 5, -2 }, bump_slide(-4, -4, -4, 5, 5, 2))
    end)

    it("slide, slides over tunnels: the perfect corner case", function()
      -- [xyz] agrees: a corner met on all three axes at once stops X (normal (1, 0, 0))
      local world = bp.World()
      world:add_collider(OTHER)
      local t, _, hit = sweep(world, cube(10, 10, 10, 2, 2, 2), { -9, -9, -9 })
      assert.is_near(2 / 9, t, TOL)
      assert.are.same({ 1, 0, 0 }, normal(hit))
      near3({ 8, 1, 1 }, bump_slide(10, 10, 10, 1, 1, 1))
    end)

    -- Not translated: bounce (bump's bounce response has no counterpart here).
  end)

  describe("spec/World_spec.lua", function()
    local function world_of(...)
      local w = bp.World()
      local handles = {}
      for i, c in ipairs { ... } do handles[i] = w:add_collider(cube(compat.unpack_table(c))) end
      return w, handles
    end

    it(":project, when the world is not empty, returns a list of collisions (a static overlap)", function()
      -- DIFFERS [overlap]: a still box inside another is no hit for a sweep; the
      -- overlap query finds it
      local w = world_of({ 0, 0, 0, 10, 10, 10 }, { 15, 15, 15, 10, 10, 10 })
      assert.are.equal(1, (w:sweep(cube(5, 5, 5, 1, 1, 1), 0, 0, 0)))
      assert.are.equal(1, #w:boxes_in(cube(5, 5, 5, 1, 1, 1)))
    end)

    it(":project, when next future X, Y, Z are passed, still handles intersections as before", function()
      -- DIFFERS [overlap]: the item (1,1,1) 2^3 starts inside (0,0,0) 2^3: no hit
      local w = world_of({ 0, 0, 0, 2, 2, 2 })
      local t, _, hit = sweep(w, cube(1, 1, 1, 2, 2, 2), { 0, 0, 0 })
      assert.are.equal(1, t)
      assert.is_nil(hit)
      t, _, hit = sweep(w, cube(1, 1, 1, 2, 2, 2), { 1, 1, 1 })
      assert.are.equal(1, t)
      assert.is_nil(hit)
    end)

    it(":project detects and tags tunneling correctly", function()
      local w = world_of({ 1, 0, 0, 2, 1, 1 })
      local t, moved, hit = sweep(w, cube(-5, 0, 0, 4, 1, 1), { 10, 0, 0 })
      assert.are.equal(0.2, t)
      assert.are.same({ 2, 0, 0 }, moved)
      assert.are.same({ -1, 0, 0 }, normal(hit))
    end)

    it(":project detects an object touching another without intersecting, and then penetrating", function()
      -- [touch-in] agrees: a hit at t = 0
      local w = world_of({ 0, 0, 0, 32, 100, 100 })
      local t, moved, hit = sweep(w, cube(32, 50, 50, 20, 20, 20), { -2, 0, 0 })
      assert.are.equal(0, t)
      assert.are.same({ 0, 0, 0 }, moved)
      assert.are.same({ 1, 0, 0 }, normal(hit))
    end)

    it(":project returns a list of collisions sorted by ti: 0.1, 0.3, 0.5", function()
      -- world:sweep reports the first (ti 0.1, 'd'); each pair's sweep gives its ti
      local boxes = { { 70, 0, 0, 10, 10, 10 }, { 50, 0, 0, 10, 10, 10 }, { 90, 0, 0, 10, 10, 10 } }
      local w, handles = world_of(compat.unpack_table(boxes))
      local item = cube(110, 0, 0, 10, 10, 10)
      local t, _, hit = sweep(w, item, { -100, 0, 0 })
      assert.are.equal(0.1, t)
      assert.are.equal(handles[3], hit.handle)
      local ti = {}
      for i, b in ipairs(boxes) do ti[i] = (item:sweep(cube(compat.unpack_table(b)), -100, 0, 0)) end
      table.sort(ti)
      assert.are.same({ 0.1, 0.3, 0.5 }, ti)
    end)

    -- :querySegment (a segment against the items) as world:raycast from the first
    -- point toward the second, as far as the second: we report the nearest item only.
    local function segment(w, x1, y1, z1, x2, y2, z2)
      local dx, dy, dz = x2 - x1, y2 - y1, z2 - z1
      return w:raycast(x1, y1, z1, dx, dy, dz, math.sqrt(dx * dx + dy * dy + dz * dz))
    end

    it(":querySegment does not touch borders", function()
      -- [ray] agrees: the three segments lie in the plane z = 0 of the items' faces
      local w = world_of({ 10, 0, 0, 5, 5, 5 }, { 20, 0, 0, 5, 5, 5 })
      assert.is_nil(segment(w, 0, 5, 0, 10, 0, 0))
      assert.is_nil(segment(w, 15, 5, 0, 20, 0, 0))
      assert.is_nil(segment(w, 26, 5, 0, 25, 0, 0))
    end)

    it(":querySegment returns the items touched by the segment, sorted by touch order (the first)", function()
      local w, h = world_of({ 5, 0, 0, 5, 10, 10 }, { 15, 0, 0, 5, 10, 10 }, { 25, 0, 0, 5, 10, 10 })
      local a, b, c = h[1], h[2], h[3]
      -- { segment, the first item, its distance }
      for _, case in ipairs {
        { { 0, 5, 5, 11, 5, 5 }, a, 5 }, { { 0, 5, 5, 17, 5, 5 }, a, 5 }, { { 0, 5, 5, 30, 5, 5 }, a, 5 },
        { { 17, 5, 5, 26, 5, 5 }, b, 0 }, -- [ray] starts inside b: distance 0
        { { 22, 5, 5, 26, 5, 5 }, c, 3 },
        { { 11, 5, 5, 0, 5, 5 }, a, 1 }, { { 17, 5, 5, 0, 5, 5 }, b, 0 },
        { { 30, 5, 5, 0, 5, 5 }, c, 0 }, -- starts on c's face, going in: distance 0
        { { 26, 5, 5, 17, 5, 5 }, c, 0 }, { { 26, 5, 5, 22, 5, 5 }, c, 0 },
      } do
        local hit = segment(w, compat.unpack_table(case[1]))
        assert.are.equal(case[2], hit.handle)
        assert.are.equal(case[3], hit.distance)
      end
    end)

    it(":querySegmentWithCoords: the first item a, entered at ti 1/6, at (5, 5, 1.6667)", function()
      local w, h = world_of({ 5, 0, 0, 5, 10, 10 }, { 15, 0, 0, 5, 10, 10 }, { 22.5, 0, 0, 7.5, 10, 10 })
      local hit = segment(w, 0, 5, 0, 30, 5, 10)
      assert.are.equal(h[1], hit.handle)
      assert.is_near(math.sqrt(1000) / 6, hit.distance, TOL)
      near3({ 5, 5, 1.6666666666666665186 }, { hit.hx, hit.hy, hit.hz })
      assert.are.same({ -1, 0, 0 }, normal(hit))
    end)

    -- :move with the item a at (0,0,0) 1^3; ours: a 1 x 1 x 1 entity moved by
    -- e:move_swept (EXACT), the first hit from world:sweep.
    local function mover(w)
      return w:spawn { x = 0.5, y = 0, z = 0.5, width = 1, height = 1, rules = EXACT }
    end

    it(":move when there are no collisions moves the object to (1, 1, 1)", function()
      local w = world_of()
      local e = mover(w)
      assert.are.same({ 1, 1, 1 }, { e:move_swept(1, 1, 1) })
    end)

    it(":move when touching returns a collision with the first item it touches: b, at (0, 1, 0)", function()
      local w, h = world_of({ 0, 2, 0, 1, 1, 1 }, { 0, 3, 0, 1, 1, 1 })
      local e = mover(w)
      local t, moved, hit = sweep(w, e:box(), { 0, 5, 0 })
      assert.are.equal(0.2, t)
      assert.are.same({ 0, 1, 0 }, moved)
      assert.are.equal(h[1], hit.handle)
      e:move_swept(0, 5, 0)
      near3({ 0, 1, 0 }, { e:box():unpack() })
    end)

    -- Not translated: :move when crossing ('cross' passes through; we have no such
    -- response) and when bouncing ('bounce').

    it(":move when sliding slides with every element (2d version): ends at (1, 5, 0), hits c only", function()
      -- [instant] agrees: b (over the item's column at x 0..1) is met only along its
      -- edge as the item leaves its column at t = 0.2 (entry = exit), no hit; c is hit
      -- at t = 0.2 on X and the item slides up its face to y = 5.
      local w, h = world_of({ 0, 2, 0, 1, 2, 1 }, { 2, 1, 0, 1, 1, 1 })
      local e = mover(w)
      local t, _, hit = sweep(w, e:box(), { 5, 5, 0 })
      assert.are.equal(0.2, t)
      assert.are.equal(h[2], hit.handle)
      assert.are.same({ -1, 0, 0 }, normal(hit))
      e:move_swept(5, 5, 0)
      near3({ 1, 5, 0 }, { e:box():unpack() })
      -- With our default back_off (0.001 of the pass) the box stops short of c at
      -- t = 0.199, (0.995, 0.995), still under b's column, and b then stops the rest
      -- (0, 4.005) 0.005 above: dy = 0.995 + 0.005 - 0.001 x 4.005. The back-off of
      -- the swept resolver, not a hit rule.
      local d = mover(world_of({ 0, 2, 0, 1, 2, 1 }, { 2, 1, 0, 1, 1, 1 }))
      d.rules = bp.rules.mccpp { step_height = 0 }
      near3({ 0.995, 0.995995, 0 }, { d:move_swept(5, 5, 0) })
    end)

    it(":move when sliding slides with every element (3d version): ends at (1, 5, 3), hits c and d", function()
      local w, h = world_of({ 0, 2, 0, 1, 2, 5 }, { 2, 1, 0, 1, 1, 5 }, { 0, 0, 4, 5, 5, 1 })
      local e = mover(w)
      local _, _, hit = sweep(w, e:box(), { 5, 5, 5 })
      assert.are.equal(h[2], hit.handle)
      e:move_swept(5, 5, 5)
      near3({ 1, 5, 3 }, { e:box():unpack() })
      assert.is_true(e.collided_horizontally)
    end)
  end)
end)

--------------------------------------------------------------------------------------
-- voxel-aabb-sweep (fenomas/voxel-aabb-sweep): test/basics.js, test/edge_cases.js,
-- test/correctness.js, test/randomized.js. sweep(getVoxel, box, dir, callback): the
-- box moves along dir through voxels (cell x spans x .. x + 1, as ours); on a hit the
-- callback may zero that axis of the rest and go on (a slide). Ours: world:sweep for
-- the first hit, e:move_swept (EXACT) for the slides.
--------------------------------------------------------------------------------------
describe("voxel-aabb-sweep", function()
  -- A world whose cells in [lo, hi] (per axis) are stone where solid(x, y, z).
  local function voxels(lo, hi, solid)
    local w = bp.World()
    w:define_block { name = "stone" }
    for x = lo[1], hi[1] do
      for y = lo[2], hi[2] do
        for z = lo[3], hi[3] do
          if solid(x, y, z) then w:set_block(x, y, z, "stone") end
        end
      end
    end
    return w
  end
  local function full() return true end
  local QUARTER = C(0.25, 0.25, 0.25, 0.75, 0.75, 0.75)

  -- an entity whose box is [lo, lo + size] on every axis
  local function cube_entity(w, lo, size)
    return w:spawn { x = lo[1] + size / 2, y = lo[2], z = lo[3] + size / 2, width = size, height = size,
      rules = EXACT }
  end

  describe("test/basics.js", function()
    it("an empty direction vector: no collision, no movement", function()
      local t, moved, hit = sweep(voxels({ 0, 0, 0 }, { -1, -1, -1 }, full), QUARTER, { 0, 0, 0 })
      assert.are.same({ 1, 0, 0, 0 }, { t, moved[1], moved[2], moved[3] })
      assert.is_nil(hit)
    end)

    it("full movement (10, -5, -15) through empty voxels", function()
      local t, moved, hit = sweep(bp.World(), QUARTER, { 10, -5, -15 })
      assert.are.same({ 1, 10, -5, -15 }, { t, moved[1], moved[2], moved[3] })
      assert.is_nil(hit)
    end)

    it("no collision not moving through full voxels", function()
      local t, _, hit = sweep(voxels({ -3, -3, -3 }, { 3, 3, 3 }, full), QUARTER, { 0, 0, 0 })
      assert.are.equal(1, t)
      assert.is_nil(hit)
    end)

    it("collision moving (1, 0, 0) through full voxels: distance 0.25, base x 0.5", function()
      -- [overlap] agrees here: the voxel the box starts in is not a collision; the next
      -- one's face x = 1 is, 0.25 ahead
      local t, moved, hit = sweep(voxels({ -3, -3, -3 }, { 3, 3, 3 }, full), QUARTER, { 1, 0, 0 })
      assert.are.same({ 0.25, 0.25, 0, 0 }, { t, moved[1], moved[2], moved[3] })
      assert.are.same({ 1, 0, 0, -1, 0, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
    end)

    it("a big box [0, 10]^3 moving (0, 5, 0) collides with the single voxel (8, 13, 8) after 3", function()
      local w = voxels({ 8, 13, 8 }, { 8, 13, 8 }, full)
      local t, moved, hit = sweep(w, C(0, 0, 0, 10, 10, 10), { 0, 5, 0 })
      assert.are.same({ 0.6, 0, 3, 0 }, { t, moved[1], moved[2], moved[3] })
      assert.are.same({ 8, 13, 8, 0, -1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
    end)

    it("collides with the wall x > 5 and keeps going on the other axis: base (5, 10, 0)", function()
      -- At t = 0.5 the box meets voxel (6,5,0) face-on and (6,6,0) by its edge; voxel
      -- (6,4,0) is left as it is reached ([instant], no hit): [xyz] the face.
      local w = voxels({ 6, -1, -1 }, { 8, 12, 1 }, full)
      local t, _, hit = sweep(w, C(0, 0, 0, 1, 1, 1), { 10, 10, 0 })
      assert.are.equal(0.5, t)
      assert.are.same({ 6, 5, 0, -1, 0, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
      local e = cube_entity(w, { 0, 0, 0 }, 1)
      near3({ 5, 10, 0 }, { e:move_swept(10, 10, 0) })
    end)

    -- Not translated: "No translation when noTranslate is truthy" (an API option).
  end)

  describe("test/edge_cases.js", function()
    it("fit exactly into a gap: a 2 x 2 x 2 box moves 10 along each axis and sign, no collision", function()
      -- [still] agrees: the box is flush with the hole's walls on the still axes
      local hole = function(v) return v == -1 or v == 0 end
      local w = voxels({ -12, -12, -12 }, { 12, 12, 12 }, function(x, y, z)
        if hole(x) or hole(y) or hole(z) then return false end
        return math.abs(x) > 5 or math.abs(y) > 5 or math.abs(z) > 5
      end)
      for axis = 1, 3 do
        for _, sign in ipairs { 1, -1 } do
          local v = { 0, 0, 0 }
          v[axis] = 10 * sign
          local t, moved, hit = sweep(w, C(-1, -1, -1, 1, 1, 1), v)
          assert.are.equal(1, t)
          assert.are.same(v, moved)
          assert.is_nil(hit)
          local e = cube_entity(w, { -1, -1, -1 }, 2)
          assert.are.same(v, { e:move_swept(v[1], v[2], v[3]) })
          w:remove(e)
        end
      end
    end)

    it("between two walls: no collision along them, and moving into them only that axis stops", function()
      -- the box [-1, 1]^3 exactly between walls on one axis (cells < -1 and > 0); the
      -- peer expects the distance of dir without that axis. [still] [touch-in] agree
      for axis = 1, 3 do
        local lo, hi = { -6, -6, -6 }, { 6, 6, 6 }
        lo[axis], hi[axis] = -4, 3
        local w = voxels(lo, hi, function(...)
          local c = select(axis, ...)
          return c < -1 or c > 0
        end)
        for _, k in ipairs { 0, 1, -1 } do
          local v = { 3, 3, 3 }
          v[axis] = 3 * k
          local want = { 3, 3, 3 }
          want[axis] = 0
          local e = cube_entity(w, { -1, -1, -1 }, 2)
          assert.are.same(want, { e:move_swept(v[1], v[2], v[3]) }, ("axis %d, dir %s"):format(axis, k))
          w:remove(e)
        end
      end
    end)
  end)

  describe("test/correctness.js", function()
    it("correctness (unobstructed): 500 seeded random boxes and moves go the whole way", function()
      local rand = H.rng(500)
      local w = bp.World()
      for _ = 1, 500 do
        local lo, hi, v = {}, {}, {}
        for i = 1, 3 do
          lo[i] = 1 - 2 * rand()
          hi[i] = lo[i] + 0.01 + 3 * rand()
          v[i] = 20 * (0.5 - rand())
        end
        local t, moved, hit = sweep(w, C(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3]), v)
        assert.are.same({ 1, v[1], v[2], v[3] }, { t, moved[1], moved[2], moved[3] })
        assert.is_nil(hit)
      end
    end)

    it("correctness (flat wall): the box [1, 2]^3 stops at 4 (or -4) against |v| = 5, goes on elsewhere", function()
      for axis = 1, 3 do
        local lo, hi = { -3, -3, -3 }, { 6, 6, 6 }
        lo[axis], hi[axis] = -5, 5
        local w = voxels(lo, hi, function(...) return math.abs(select(axis, ...)) == 5 end)
        for _, sign in ipairs { 1, -1 } do
          local v = { 2, 2, 2 }
          v[axis] = 10 * sign
          local want = { 3, 3, 3 }
          want[axis] = 4 * sign
          local e = cube_entity(w, { 1, 1, 1 }, 1)
          e:move_swept(v[1], v[2], v[3])
          near3(want, { e:box():unpack() }, TOL, ("axis %d, sign %d"):format(axis, sign))
          w:remove(e)
        end
      end
    end)

    it("correctness (box): inside a hollow box of walls at |v| = 5, every diagonal ends at (+-4, +-4, +-4)", function()
      local w = voxels({ -5, -5, -5 }, { 5, 5, 5 }, function(x, y, z)
        return math.max(math.abs(x), math.abs(y), math.abs(z)) == 5
      end)
      for _, sx in ipairs { 1, -1 } do
        for _, sy in ipairs { 1, -1 } do
          for _, sz in ipairs { 1, -1 } do
            local e = cube_entity(w, { 1, 1, 1 }, 1)
            e:move_swept(12 * sx, 15 * sy, 17 * sz)
            near3({ 4 * sx, 4 * sy, 4 * sz }, { e:box():unpack() })
            w:remove(e)
          end
        end
      end
    end)

    -- Not translated: "correctness (nearby obstruction)" (its pass line is commented
    -- out: it asserts nothing) and test/multiple_hits.js (how often a voxel is read).
  end)

  describe("test/randomized.js", function()
    it("more randomized tests: 200 seeded oblique moves onto the ground y < 0 land at y = 0", function()
      local w = voxels({ -48, -1, -48 }, { 58, -1, 58 }, full)
      local rand = H.rng(1000)
      local function between(a, b) return a + (b - a) * rand() end
      for _ = 1, 200 do
        local v = { between(-50, 50), between(-10, -50), between(-50, 50) }
        local e = cube_entity(w, { 5, 5, 5 }, 1)
        e:move_swept(v[1], v[2], v[3])
        near3({ 5 + v[1], 0, 5 + v[3] }, { e:box():unpack() })
        assert.is_true(e.on_ground)
        w:remove(e)
      end
    end)
  end)

  -- The fork liamdon/voxel-aabb-sweep adds a checkStartingVoxel option and voxels
  -- with fractional shapes (getVoxel is asked at an offset inside the voxel).
  describe("liamdon/voxel-aabb-sweep test/starting_voxel.ts", function()
    it("option enabled - starting collision detected: distance 0 (disabled: 0.25)", function()
      -- DIFFERS [overlap]: the voxel the box starts in is no hit; the next face is,
      -- 0.25 ahead (the peer's answer with the option disabled, its default)
      local t = sweep(voxels({ -3, -3, -3 }, { 3, 3, 3 }, full), QUARTER, { 1, 0, 0 })
      assert.are.equal(0.25, t)
    end)

    it("option enabled - starting in air works normally: voxels x >= 5, distance 4.25, base 4.5", function()
      local w = voxels({ 5, -2, -2 }, { 15, 2, 2 }, full)
      local t, moved = sweep(w, QUARTER, { 10, 0, 0 })
      assert.are.equal(0.425, t)
      assert.are.same({ 4.25, 0, 0 }, moved)
    end)

    it("option enabled - large AABB [0, 3]^3 starting in solid: distance 0", function()
      -- the same number for another reason: [overlap] ignores the cells it starts in,
      -- [touch-in] the cells x = 3 it touches and moves into are hit at t = 0
      local t, moved, hit = sweep(voxels({ -3, -3, -3 }, { 6, 6, 6 }, full), C(0, 0, 0, 3, 3, 3), { 1, 0, 0 })
      assert.are.equal(0, t)
      assert.are.same({ 0, 0, 0 }, moved)
      assert.are.same({ -1, 0, 0 }, normal(hit))
    end)

    it("option enabled - only the leading face overlaps solid (voxels x == 0): distance 0", function()
      -- DIFFERS [overlap]: no hit, the box leaves the voxel it starts in
      local t, _, hit = sweep(voxels({ 0, -2, -2 }, { 0, 2, 2 }, full), QUARTER, { 1, 0, 0 })
      assert.are.equal(1, t)
      assert.is_nil(hit)
    end)

    it("option enabled - zero movement vector: no collision", function()
      local t, _, hit = sweep(voxels({ -3, -3, -3 }, { 3, 3, 3 }, full), QUARTER, { 0, 0, 0 })
      assert.are.equal(1, t)
      assert.is_nil(hit)
    end)

    it("option enabled - starting in solid (x >= 1), moving away: distance 0", function()
      -- DIFFERS [overlap]: no hit, the box moves out of the voxel it starts in
      local t, moved, hit = sweep(voxels({ 1, -2, -2 }, { 4, 2, 2 }, full), C(1.25, 0.25, 0.25, 1.75, 0.75, 0.75),
        { -5, 0, 0 })
      assert.are.same({ 1, -5, 0, 0 }, { t, moved[1], moved[2], moved[3] })
      assert.is_nil(hit)
    end)

    it("option enabled - diagonal movement from solid: distance 0", function()
      -- DIFFERS [overlap]: the next voxels' faces, 0.25 ahead on every axis, tie with
      -- their edges and corner; [xyz] the face on X
      local t, _, hit = sweep(voxels({ -3, -3, -3 }, { 3, 3, 3 }, full), QUARTER, { 1, 1, 1 })
      assert.are.equal(0.25, t)
      assert.are.same({ -1, 0, 0 }, normal(hit))
    end)

    -- Not translated: "AABB at voxel boundary" and "callback can modify vector at
    -- start" (no expected value), "default behavior unchanged" (the same scene as
    -- "starting in air").
  end)

  describe("liamdon/voxel-aabb-sweep test/fractional_voxels.ts", function()
    -- the half-height slab at (0, 5, 0): block shape y 0 .. 0.5
    local function slab_world()
      local w = bp.World()
      w:define_block { name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
      w:set_block(0, 5, 0, "slab")
      return w
    end

    it("slab collision: from 6.4 down 2, collides (the peer stops the base at y = 6)", function()
      -- DIFFERS (a peer quirk, not a convention): the peer samples its slab voxel at
      -- the box's offset inside it and stops at the voxel's top face y = 6; our block
      -- shapes are boxes: the slab's top, y = 5.5, is met at t = 0.9 / 2
      local t, moved, hit = sweep(slab_world(), C(0.25, 6.4, 0.25, 0.75, 6.7, 0.75), { 0, -2, 0 })
      assert.is_near(0.45, t, TOL)
      assert.is_near(-0.9, moved[2], TOL)
      assert.are.same({ 0, 1, 0 }, normal(hit))
    end)

    it("slab collision: from 5.6 down 1 (the peer: no collision, base 4.6)", function()
      -- DIFFERS (a peer quirk): the peer finds air where it samples the slab (0.6 into
      -- the voxel) and passes through it; the slab's top is 0.1 below the box: a hit
      local t, moved = sweep(slab_world(), C(0.25, 5.6, 0.25, 0.75, 5.8, 0.75), { 0, -1, 0 })
      assert.is_near(0.1, t, TOL)
      assert.is_near(-0.1, moved[2], TOL)
    end)

    it("slab collision: from 5.3 down 2, no collision", function()
      -- agrees, by [overlap]: the box starts inside the slab, so no hit
      local t, moved, hit = sweep(slab_world(), C(0.25, 5.3, 0.25, 0.75, 5.5, 0.75), { 0, -2, 0 })
      assert.are.same({ 1, 0, -2, 0 }, { t, moved[1], moved[2], moved[3] })
      assert.is_nil(hit)
    end)

    it("horizontal slab (solid in the left half of (5, 0, 0)): from 3.3 right 3 stops with max x 5", function()
      local w = bp.World()
      w:define_block { name = "half", boxes = { { 0, 0, 0, 0.5, 1, 1 } } }
      w:set_block(5, 0, 0, "half")
      local _, moved = sweep(w, C(3, 0.25, 0.25, 3.3, 0.75, 0.75), { 3, 0, 0 })
      assert.is_near(1.7, moved[1], TOL)
      -- and from 5.3 .. 5.6 left 2: no collision, base 3.3 (agrees, by [overlap])
      local t, moved2, hit = sweep(w, C(5.3, 0.25, 0.25, 5.6, 0.75, 0.75), { -2, 0, 0 })
      assert.are.same({ 1, -2 }, { t, moved2[1] })
      assert.is_nil(hit)
    end)

    it("backward compatibility: voxels y == 5, from 4 .. 4.3 up 2 the base stops at 4.7", function()
      local w = voxels({ -2, 5, -2 }, { 2, 5, 2 }, full)
      local t, moved = sweep(w, C(0.25, 4, 0.25, 0.75, 4.3, 0.75), { 0, 2, 0 })
      assert.is_near(0.35, t, TOL)
      assert.is_near(0.7, moved[2], TOL)
    end)

    -- Not translated: "variable height terrain" (a sloped surface inside a voxel: our
    -- shapes are boxes) and "dx dy dz parameters passed correctly" (the callback API).
  end)
end)

--------------------------------------------------------------------------------------
-- Voxel raycasts against world:raycast: fenomas/fast-voxel-raycast test/check_hits.js,
-- check_shallow.js, check_sphere.js, check_halt.js; mikolalysenko/voxel-raycast
-- test/check_edges.js. raycast(getVoxel, origin, direction, max, hit_pos, hit_normal):
-- a hit or not, where, and the normal. One voxel: (0, 0, 0), the cube [0, 1]^3.
--------------------------------------------------------------------------------------
describe("voxel raycasts", function()
  local function one_voxel()
    local w = bp.World()
    w:define_block { name = "stone" }
    w:set_block(0, 0, 0, "stone")
    return w
  end

  -- the six axis rays of check_hits.js and check_edges.js: origin, direction, hit, normal
  local SIX = {
    { { -1, 0.5, 0.5 }, { 1, 0, 0 }, { 0, 0.5, 0.5 }, { -1, 0, 0 } },
    { { 2, 0.5, 0.5 }, { -1, 0, 0 }, { 1, 0.5, 0.5 }, { 1, 0, 0 } },
    { { 0.5, -1, 0.5 }, { 0, 1, 0 }, { 0.5, 0, 0.5 }, { 0, -1, 0 } },
    { { 0.5, 2, 0.5 }, { 0, -1, 0 }, { 0.5, 1, 0.5 }, { 0, 1, 0 } },
    { { 0.5, 0.5, -1 }, { 0, 0, 1 }, { 0.5, 0.5, 0 }, { 0, 0, -1 } },
    { { 0.5, 0.5, 2 }, { 0, 0, -1 }, { 0.5, 0.5, 1 }, { 0, 0, 1 } },
  }

  local function hits_and_distance()
    local w = one_voxel()
    for _, r in ipairs(SIX) do
      local o, d = r[1], r[2]
      local hit = w:raycast(o[1], o[2], o[3], d[1], d[2], d[3], 100)
      assert.are.same(r[3], { hit.hx, hit.hy, hit.hz })
      assert.are.same(r[4], { hit.nx, hit.ny, hit.nz })
      assert.are.same({ 0, 0, 0 }, { hit.x, hit.y, hit.z })
    end
    -- distance: the face is 1 away; max distances 0.1 .. 0.9999999999999999 (the
    -- peers' loop d += 0.1) miss, 1.0 hits ([ray]: a face at max_distance counts)
    local d = 0.1
    while d < 1.0 do
      assert.is_nil(w:raycast(0.5, 0.5, -1, 0, 0, 1, d))
      d = d + 0.1
    end
    assert.is_not_nil(w:raycast(0.5, 0.5, -1, 0, 0, 1, 1.0))
    -- DIFFERS (API): the peers' loop starts at max distance 0; ours must be in (0, 4096]
    assert.has_error(function() w:raycast(0.5, 0.5, -1, 0, 0, 1, 0) end)
  end

  it("fast-voxel-raycast test/check_hits.js: hits on every face, and the distance limit", hits_and_distance)

  it("voxel-raycast (mikolalysenko) test/check_edges.js: single block, hits and distance", hits_and_distance)

  it("fast-voxel-raycast test/check_shallow.js: five shallow rays (the peer: hit, hit, miss, hit, miss)", function()
    local w = one_voxel()
    local function ray(o, d)
      return w:raycast(o[1], o[2], o[3], d[1], d[2], d[3], 5.0)
    end
    -- these two pass through the cube's interior for about 3e-8 near its corner
    assert.is_not_nil(ray({ 1.6014050509453097, -0.05316262501184864, -1.1969442782079132 },
      { -0.8007025204726549, 0.02658131750592432, 0.5984721441039565 }))
    assert.is_not_nil(ray({ -1.41733953858252, 1.4110806611407838, 0.25000001 },
      { 0.70866977429126, -0.7055403255703919, 0 }))
    assert.is_nil(ray({ 1, 1, 1 }, { 1, 1, -1 })) -- from a corner, away
    -- DIFFERS [ray]: this ray reaches the corner (0, 0, 0) exactly at parameter 2
    -- (x leaves [0, 1] as y and z enter it) and never enters the open interior
    assert.is_nil(ray({ 1.9788948495478698, -0.06569435085032517, -0.2822400161197344 },
      { -0.9894474247739349, 0.032847175425162585, 0.1411200080598672 }))
    assert.is_nil(ray({ 1, 1, 0 }, { -1, -1, -1 })) -- from an edge, away on Z
  end)

  it("fast-voxel-raycast test/check_sphere.js: rays from all around through points inside the cube hit", function()
    local w = one_voxel()
    local n = 0
    for theta = 0, math.pi * 2 - 1e-9, 0.25 do
      for phi = 0, math.pi - 1e-9, 0.25 do
        local d = { math.cos(theta) * math.cos(phi), math.sin(theta) * math.cos(phi), math.sin(phi) }
        for x = 0.001, 0.999, 0.25 do
          for y = 0.001, 0.999, 0.25 do
            for z = 0.001, 0.999, 0.25 do
              local hit = w:raycast(x - 2 * d[1], y - 2 * d[2], z - 2 * d[3], d[1], d[2], d[3], 10)
              assert.is_not_nil(hit)
              n = n + 1
            end
          end
        end
      end
    end
    assert.are.equal(26 * 13 * 64, n)
  end)

  it("fast-voxel-raycast test/check_halt.js: random rays in an empty world halt (and hit nothing)", function()
    local w = bp.World()
    local rand = H.rng(7)
    for _ = 1, 1000 do
      assert.is_nil(w:raycast(rand() * 10, rand() * 10, rand() * 10, rand() - 0.5, rand() - 0.5, rand() - 0.5, 100))
    end
  end)

  it("voxel-raycast (mikolalysenko) test/check_edges.js: 702 rays from the cube's corners, edges, faces", function()
    -- From p on the 0.5 grid of the cube (27 points) in all 26 directions d of
    -- {-1, 0, 1}^3. The peer's voxels are half-open (x in [0, 1)): it expects a hit at
    -- p, distance 0, except from a point with a coordinate 1 unless p + 0.1 d lies in
    -- the voxel. DIFFERS [ray] on 175 of the 702: ours hits (at p, distance 0) exactly
    -- when the ray enters the open interior at once: on every axis p is 0.5, or 0
    -- with d > 0, or 1 with d < 0.
    local w = one_voxel()
    local function peer(p, d)
      if p[1] == 1 or p[2] == 1 or p[3] == 1 then
        for i = 1, 3 do
          if math.floor(p[i] + 0.1 * d[i]) ~= 0 then return false end
        end
      end
      return true
    end
    local function ours(p, d)
      for i = 1, 3 do
        if not (p[i] == 0.5 or p[i] == 0 and d[i] > 0 or p[i] == 1 and d[i] < 0) then return false end
      end
      return true
    end
    local n, differ = 0, 0
    for x = 0, 2 do
      for y = 0, 2 do
        for z = 0, 2 do
          local p = { 0.5 * x, 0.5 * y, 0.5 * z }
          for dx = -1, 1 do
            for dy = -1, 1 do
              for dz = -1, 1 do
                if dx ~= 0 or dy ~= 0 or dz ~= 0 then
                  local d = { dx, dy, dz }
                  local hit = w:raycast(p[1], p[2], p[3], dx, dy, dz, 100)
                  local where = fmt(p) .. " toward " .. fmt(d)
                  if ours(p, d) then
                    assert.are.same({ 0, p[1], p[2], p[3] }, { hit.distance, hit.hx, hit.hy, hit.hz }, where)
                  else
                    assert.is_nil(hit, where)
                  end
                  n = n + 1
                  if peer(p, d) ~= ours(p, d) then differ = differ + 1 end
                end
              end
            end
          end
        end
      end
    end
    assert.are.same({ 702, 175 }, { n, differ })
  end)

  -- Not translated: voxel-raycast test/test.js (it prints results, asserts nothing).
end)

--------------------------------------------------------------------------------------
-- prismarine-physics test/aabb.test.js: block.computeOffsetX/Y/Z(other, motion), the
-- motion the box `other` may make along one axis past the block [0, 1]^3 (the
-- per-axis clip of the game, with an epsilon of 1e-7 counting a sub-epsilon overlap
-- as contact). Ours: world:sweep of `other` along that axis against the block as a
-- collider: the allowed displacement.
--------------------------------------------------------------------------------------
describe("prismarine-physics test/aabb.test.js", function()
  local MOTION, SUB, REAL_OVERLAP, GAP = 0.25, 5e-8, 2e-7, 0.125

  -- movingBox(axis, side, separation): [0.25, 0.75] on the other axes; on `axis` 1
  -- long, `separation` from the block on the negative or positive side
  local function moving_box(axis, side, sep)
    local lo, hi = { 0.25, 0.25, 0.25 }, { 0.75, 0.75, 0.75 }
    if side == "negative" then
      hi[axis] = -sep
      lo[axis] = hi[axis] - 1
    else
      lo[axis] = 1 + sep
      hi[axis] = lo[axis] + 1
    end
    return { lo = lo, hi = hi }
  end

  local function offset(axis, b, motion, block)
    local w = bp.World()
    w:add_collider(block or C(0, 0, 0, 1, 1, 1))
    local v = { 0, 0, 0 }
    v[axis] = motion
    local _, moved = sweep(w, C(b.lo[1], b.lo[2], b.lo[3], b.hi[1], b.hi[2], b.hi[3]), v)
    return moved[axis]
  end

  for axis = 1, 3 do
    local name = ("XYZ"):sub(axis, axis)
    describe(name, function()
      it("clamps exact and sub-epsilon contact from both directions", function()
        -- exact contact, moving in: 0 ([touch-in] agrees)
        assert.are.equal(0, offset(axis, moving_box(axis, "negative", 0), MOTION))
        assert.are.equal(0, offset(axis, moving_box(axis, "positive", 0), -MOTION))
        -- DIFFERS [overlap]: 5e-8 inside the block is an overlap for us, no contact:
        -- the box moves the whole motion (the peer clamps it to 0)
        assert.are.equal(MOTION, offset(axis, moving_box(axis, "negative", -SUB), MOTION))
        assert.are.equal(-MOTION, offset(axis, moving_box(axis, "positive", -SUB), -MOTION))
      end)

      it("preserves real gaps", function()
        assert.are.equal(GAP, offset(axis, moving_box(axis, "negative", GAP), MOTION))
        assert.are.equal(-GAP, offset(axis, moving_box(axis, "positive", GAP), -MOTION))
      end)

      it("preserves sub-epsilon gaps and smaller requested motion", function()
        local neg, pos = moving_box(axis, "negative", SUB), moving_box(axis, "positive", SUB)
        assert.are.equal(0 - neg.hi[axis], offset(axis, neg, MOTION))
        assert.are.equal(1 - pos.lo[axis], offset(axis, pos, -MOTION))
        assert.are.equal(SUB / 2, offset(axis, neg, SUB / 2))
        assert.are.equal(-SUB / 2, offset(axis, pos, -SUB / 2))
      end)

      it("does not treat overlap beyond the epsilon as contact", function()
        assert.are.equal(MOTION, offset(axis, moving_box(axis, "negative", -REAL_OVERLAP), MOTION))
        assert.are.equal(-MOTION, offset(axis, moving_box(axis, "positive", -REAL_OVERLAP), -MOTION))
      end)

      it("does not restrict movement away from contact", function()
        assert.are.equal(-MOTION, offset(axis, moving_box(axis, "negative", 0), -MOTION))
        assert.are.equal(MOTION, offset(axis, moving_box(axis, "positive", 0), MOTION))
        assert.are.equal(-MOTION, offset(axis, moving_box(axis, "negative", -SUB), -MOTION))
        assert.are.equal(MOTION, offset(axis, moving_box(axis, "positive", -SUB), MOTION))
      end)

      it("does not collide when the boxes only touch on a perpendicular axis", function()
        -- [still] agrees
        local b = moving_box(axis, "positive", 0)
        local tangent = axis % 3 + 1
        b.lo[tangent], b.hi[tangent] = 1, 2
        assert.are.equal(-MOTION, offset(axis, b, -MOTION))
      end)
    end)
  end

  it("clamps contact reconstructed with sub-epsilon floating-point overlap", function()
    -- (4 + 0.3005) - 0.3005 is one ulp below 4: the box starts 4.4e-16 inside the
    -- obstacle [3, 4]. DIFFERS [overlap]: no hit, the whole motion (the peer: 0). Our
    -- docs/conventions.md warns of this with the float half-width ("Mind the float half-width").
    local min_x = (4 + 0.3005) - 0.3005
    assert.is_true(min_x < 4 and 4 - min_x < SUB)
    local b = { lo = { min_x, 0.25, 0.25 }, hi = { min_x + 1, 0.75, 0.75 } }
    assert.are.equal(-MOTION, offset(1, b, -MOTION, C(3, 0, 0, 4, 1, 1)))
  end)
end)

--------------------------------------------------------------------------------------
-- Minestom src/test/java/net/minestom/server/collision/EntityBlockPhysicsIntegrationTest.java
-- CollisionUtils.handlePhysics(entity, velocity): the entity's box moved by the
-- velocity (one tick) through the blocks, sliding; the test compares the new
-- position within 0.01 (and on_ground, the collision flags, the velocity). Its flat
-- test world is stone up to y = 39 (top face y = 40). A zombie is 0.6 x 1.95. Ours:
-- e:move_swept with EXACT rules from a fresh spawn each time (handlePhysics does not
-- move the entity); the positions below are ours exactly (within 1e-9).
--------------------------------------------------------------------------------------
describe("Minestom EntityBlockPhysicsIntegrationTest.java", function()
  local S = 1 / 16
  local SHAPES = {
    stone = nil, -- a full cube
    stone_slab = { { 0, 0, 0, 1, 0.5, 1 } },
    oak_fence = { { 0.375, 0, 0.375, 0.625, 1.5, 0.625 } },
    brown_carpet = { { 0, 0, 0, 1, S, 1 } },
    lantern = { { 5 * S, 0, 5 * S, 11 * S, 7 * S, 11 * S }, { 6 * S, 7 * S, 6 * S, 10 * S, 9 * S, 10 * S } },
    acacia_stairs = { { 0, 0, 0, 1, 0.5, 1 }, { 0, 0.5, 0, 1, 1, 0.5 } }, -- facing north, bottom half
    trapdoor_bottom = { { 0, 0, 0, 1, 3 * S, 1 } }, -- closed
    trapdoor_top = { { 0, 13 * S, 0, 1, 1, 1 } },
    trapdoor_north = { { 0, 0, 13 * S, 1, 1, 1 } }, -- open, facing north
    trapdoor_south = { { 0, 0, 0, 1, 1, 3 * S } },
    trapdoor_west = { { 13 * S, 0, 0, 1, 1, 1 } },
    trapdoor_east = { { 0, 0, 0, 3 * S, 1, 1 } },
    -- fences joined to their neighbours (posts with arms), for the XZ diagonal case
    fence_north_west = { { 0.375, 0, 0.375, 0.625, 1.5, 0.625 }, { 0.375, 0, 0, 0.625, 1.5, 0.375 },
      { 0, 0, 0.375, 0.375, 1.5, 0.625 } },
    fence_south = { { 0.375, 0, 0.375, 0.625, 1.5, 0.625 }, { 0.375, 0, 0.625, 0.625, 1.5, 1 } },
    fence_east = { { 0.375, 0, 0.375, 0.625, 1.5, 0.625 }, { 0.625, 0, 0.375, 1, 1.5, 0.625 } },
  }

  -- env.createFlatInstance() with the blocks { x, y, z, name }
  local function flat(blocks)
    local w = bp.World()
    for _, name in ipairs { "stone", "stone_slab", "oak_fence", "brown_carpet", "lantern", "acacia_stairs",
      "trapdoor_bottom", "trapdoor_top", "trapdoor_north", "trapdoor_south", "trapdoor_west", "trapdoor_east",
      "fence_north_west", "fence_south", "fence_east" } do
      w:define_block { name = name, boxes = SHAPES[name] }
    end
    w:fill(-16, 39, -16, 31, 39, 31, "stone")
    for _, b in ipairs(blocks or {}) do w:set_block(b[1], b[2], b[3], b[4] or "stone") end
    return w
  end

  local function zombie(w, x, y, z)
    return w:spawn { x = x, y = y, z = z, width = 0.6, height = 1.95, rules = EXACT }
  end

  -- handlePhysics: the entity moved
  local function moved(w, pos, v, width, height)
    local e = w:spawn { x = pos[1], y = pos[2], z = pos[3], width = width or 0.6, height = height or 1.95,
      rules = EXACT }
    e:move_swept(v[1], v[2], v[3])
    return e
  end

  -- handlePhysics: the new position
  local function physics(...)
    return { moved(...):position() }
  end

  it("entityPhysicsCheckCollision: stone (0,43,1), from (0,42,0) by (0,0,10): (0, 42, 0.7)", function()
    near3({ 0, 42, 0.7 }, physics(flat { { 0, 43, 1 } }, { 0, 42, 0 }, { 0, 0, 10 }))
  end)

  it("entityPhysicsCheckSlab: slab (0,42,0), from (0,44,0) by (0,-10,0): (0, 42.5, 0)", function()
    near3({ 0, 42.5, 0 }, physics(flat { { 0, 42, 0, "stone_slab" } }, { 0, 44, 0 }, { 0, -10, 0 }))
  end)

  it("entityPhysicsCheckShallowAngle: on ground, a Y collision, (13.085, 100, 16.498), velocity x kept", function()
    -- [touch-in] agrees: standing on the stone's top, moving down hits it at t = 0
    local w = flat { { 13, 99, 16 } }
    local e = zombie(w, 12.812, 100.0, 16.498)
    e.vx, e.vy = 0.273, -0.0784
    e:move_swept(0.273, -0.0784, 0)
    near3({ 12.812 + 0.273, 100, 16.498 }, { e:position() })
    assert.is_true(e.on_ground and e.collided_vertically)
    assert.are.same({ 0.273, 0, 0 }, { e:velocity() })
  end)

  it("entityPhysicsCheckFallFence: standing on a fence post, by (0,-0.25,0): stays at (0.5, 43.5, 0.5)", function()
    near3({ 0.5, 43.5, 0.5 }, physics(flat { { 0, 42, 0, "oak_fence" } }, { 0.5, 43.5, 0.5 }, { 0, -0.25, 0 }))
  end)

  it("entityPhysicsCheckFallHitCarpet: fence + carpet, from (0,54.0625,0) by -11.03: (0, 43.0625, 0)", function()
    local w = flat { { 0, 42, 0, "oak_fence" }, { 0, 43, 0, "brown_carpet" } }
    near3({ 0, 43.0625, 0 }, physics(w, { 0, 54.0625, 0 }, { 0, -11.03, 0 }))
  end)

  it("entityPhysicsCheckFallHitFence: over the post, from (0.5,54.0625,0.5) by -11.03: (0.5, 43.5, 0.5)", function()
    local w = flat { { 0, 42, 0, "oak_fence" }, { 0, 43, 0, "brown_carpet" } }
    near3({ 0.5, 43.5, 0.5 }, physics(w, { 0.5, 54.0625, 0.5 }, { 0, -11.03, 0 }))
  end)

  it("entityPhysicsCheckFallHitFenceLongMove: by -21: (0.5, 43.5, 0.5)", function()
    local w = flat { { 0, 42, 0, "oak_fence" }, { 0, 43, 0, "brown_carpet" } }
    near3({ 0.5, 43.5, 0.5 }, physics(w, { 0.5, 54.0625, 0.5 }, { 0, -21, 0 }))
  end)

  it("entityPhysicsCheckHorizontalFence (and carpeted): fence (1,42,0), by (2,0,0): (1.075, 43.25, 0.5)", function()
    near3({ 1.075, 43.25, 0.5 }, physics(flat { { 1, 42, 0, "oak_fence" } }, { 0.5, 43.25, 0.5 }, { 2, 0, 0 }))
    local w = flat { { 1, 42, 0, "oak_fence" }, { 1, 43, 0, "brown_carpet" } }
    near3({ 1.075, 43.25, 0.5 }, physics(w, { 0.5, 43.25, 0.5 }, { 2, 0, 0 }))
  end)

  it("entityPhysicsCheckDiagonalCarpetedFenceX and Z: by (2,-2,0) / (0,-2,2) onto the carpet by the post", function()
    -- At t = 0.5 the post's side (X) and the carpet's top (Y) are met together, two
    -- faces: [xyz] X first, then the box lands on the carpet; either order ends here.
    local w = flat { { 1, 42, 0, "oak_fence" }, { 1, 43, 0, "brown_carpet" } }
    near3({ 1.075, 43.0625, 0.5 }, physics(w, { 0.075, 44.0625, 0.5 }, { 2, -2, 0 }))
    w = flat { { 0, 42, 1, "oak_fence" }, { 0, 43, 1, "brown_carpet" } }
    near3({ 0.5, 43.0625, 1.075 }, physics(w, { 0.5, 44.0625, 0.075 }, { 0, -2, 2 }))
  end)

  it("entityPhysicsCheckDiagonalCarpetedFenceXZ: joined fences, three moves end at (0.075, 43.0625, 1.075)", function()
    local w = flat {
      { 0, 42, 1, "fence_north_west" }, { 0, 42, 0, "fence_south" }, { -1, 42, 1, "fence_east" },
      { 0, 43, 1, "brown_carpet" }, { 0, 43, 0, "brown_carpet" }, { -1, 43, 1, "brown_carpet" },
    }
    for _, v in ipairs { { 2, -2, 2 }, { 5, -5, 2 }, { 2, -5, 5 } } do
      near3({ 0.075, 43.0625, 1.075 }, physics(w, { -0.925, 44.0625, 0.075 }, v), TOL, fmt(v))
    end
  end)

  it("entityPhysicsCheckFenceAboveHead: fence (0,45,0), from (0.5,43,0.5) up 2: (0.5, 43.05, 0.5)", function()
    near3({ 0.5, 43.05, 0.5 }, physics(flat { { 0, 45, 0, "oak_fence" } }, { 0.5, 43, 0.5 }, { 0, 2, 0 }))
  end)

  it("entityPhysicsCheckDiagonal: stones (1,43,1), (1,43,2), by (10,0,10): (10, 42, 0.7) or (0.7, 42, 10)", function()
    -- the block's corner is met on X and Z at once (an edge): [xyz] X stops: (0.7, 42, 10)
    near3({ 0.7, 42, 10 }, physics(flat { { 1, 43, 1 }, { 1, 43, 2 } }, { 0, 42, 0 }, { 10, 0, 10 }))
  end)

  it("entityPhysicsCheckDirectSlide: from (0.69,42,0.69) by (10,0,11): (0.7, 42, 11.69)", function()
    near3({ 0.7, 42, 11.69 }, physics(flat { { 1, 43, 1 }, { 1, 43, 2 } }, { 0.69, 42, 0.69 }, { 10, 0, 11 }))
  end)

  it("entityPhysicsCheckCorner: stone (5,43,-5), from (-0.3,42,-0.3) by (10,0,-10) (Minestom: 4.7, 42, -10.3)",
    function()
    -- DIFFERS [instant]: at t = 0.5 the box's x max reaches the stone's x min (5) as
    -- its z max leaves the stone's z min (-5): they touch along an edge only, never
    -- overlap. Minestom stops X there; we pass: (9.7, 42, -10.3).
    local w = flat { { 5, 43, -5 } }
    local box = C(-0.6, 42, -0.6, 0, 43.95, 0)
    local t, _, hit = sweep(w, box, { 10, 0, -10 })
    assert.are.equal(1, t)
    assert.is_nil(hit)
    near3({ 9.7, 42, -10.3 }, physics(w, { -0.3, 42, -0.3 }, { 10, 0, -10 }))
  end)

  it("entityPhysicsCheckEnclosedHit: a size-20 slime from (5,50,5) by -20 lands on stone (8,42,8) at 43", function()
    -- the slime's box (10.4 wide: 0.52 per size) covers the block; any width that
    -- does gives this
    near3({ 5, 43, 5 }, physics(flat { { 8, 42, 8 } }, { 5, 50, 5 }, { 0, -20, 0 }, 10.4, 10.4))
  end)

  it("entityPhysicsCheckEnclosedHitSubBlock: onto a lantern (8,42,8) from 42.8 by -0.4: 42.5625", function()
    near3({ 5, 42 + 9 * S, 5 }, physics(flat { { 8, 42, 8, "lantern" } }, { 5, 42.8, 5 }, { 0, -0.4, 0 }, 10.4, 10.4))
  end)

  it("entityPhysicsCheckEnclosedMiss: a size-5 slime misses stone (11,43,11): (5, 42, 5)", function()
    near3({ 5, 42, 5 }, physics(flat { { 11, 43, 11 } }, { 5, 44, 5 }, { 0, -2, 0 }, 2.6, 2.6))
  end)

  it("entityPhysicsCheckEntityHit: sweeping a zombie box by (20,1,0) past zombies at x 15 and 11 hits x 11", function()
    -- intersectBoxSwept against two entity boxes: as colliders (world:sweep) and as
    -- solid entities (e:move_swept)
    local function zombie_box(x)
      return C(x - 0.3, 0, -0.3, x + 0.3, 1.95, 0.3)
    end
    for _, order in ipairs { { 15, 11 }, { 11, 15 } } do
      local w = bp.World()
      local handle = {}
      for _, x in ipairs(order) do handle[x] = w:add_collider(zombie_box(x)) end
      local t, _, hit = sweep(w, zombie_box(0), { 20, 1, 0 })
      assert.are.equal(handle[11], hit.handle)
      assert.is_near(10.4 / 20, t, TOL)
      local ws = bp.World()
      for _, x in ipairs(order) do ws:spawn { x = x, y = 0, z = 0, width = 0.6, height = 1.95, solid = true } end
      local e = ws:spawn { x = 0, y = 0, z = 0, width = 0.6, height = 1.95, rules = EXACT }
      e:move_swept(20, 1, 0)
      assert.is_near(10.4, e.x, TOL)
    end
  end)

  it("entityPhysicsCheckEdgeClip: stone (1,43,1), from (0,42,0.7) by (10,0,0) (Minestom: 0.7, 42, 0.7)", function()
    -- DIFFERS [still]: the box's z max is the stone's z min (1): touching on the still
    -- Z axis, never a hit; Minestom stops at the stone. We pass: (10, 42, 0.7).
    near3({ 10, 42, 0.7 }, physics(flat { { 1, 43, 1 } }, { 0, 42, 0.7 }, { 10, 0, 0 }))
  end)

  it("entityPhysicsCheckEdgeClipSmall: from (0.6999,42,0.6999) by (0.702,0,0.702): (0.7, 42, 1.402) or (1.402, ...)",
    function()
    -- a real corner hit (X and Z enter together): [xyz] X stops, Z slides on
    near3({ 0.7, 42, 0.6999 + 0.702 }, physics(flat { { 1, 42, 1 } }, { 0.6999, 42, 0.6999 }, { 0.702, 0, 0.702 }))
  end)

  for _, case in ipairs {
    { "North", "trapdoor_north", { 0.5, 42.5, 0.5 }, { 0, 0, 0.4 }, { 0.5, 42.5, 0.5125 } },
    { "South", "trapdoor_south", { 0.5, 42.5, 0.5 }, { 0, 0, -0.4 }, { 0.5, 42.5, 0.4875 } },
    { "West", "trapdoor_west", { 0.5, 42.5, 0.5 }, { 0.6, 0, 0 }, { 0.5125, 42.5, 0.5 } },
    { "East", "trapdoor_east", { 0.5, 42.5, 0.5 }, { -0.6, 0, 0 }, { 0.4875, 42.5, 0.5 } },
    { "Up", "trapdoor_top", { 0.5, 42.7, 0.5 }, { 0, 0.4, 0 }, { 0.5, 42.8625, 0.5 }, 44 },
    { "Down", "trapdoor_bottom", { 0.5, 42.2, 0.5 }, { 0, -0.4, 0 }, { 0.5, 42.1875, 0.5 } },
  } do
    it(("entityPhysicsCheckDoorSubBlock%s: a trapdoor's 3/16 plate stops the box at %s"):format(case[1],
      fmt(case[5])), function()
      near3(case[5], physics(flat { { 0, case[6] or 42, 0, case[2] } }, case[3], case[4]))
    end)
  end

  it("entityPhysicsCheckDoorSubBlockSouthRepeat: a second move into the plate stays at 0.4875", function()
    local w = flat { { 0, 42, 0, "trapdoor_south" } }
    local e = zombie(w, 0.5, 42.5, 0.5)
    e:move_swept(0, 0, -0.4)
    e:move_swept(0, 0, -0.4) -- [touch-in]: touching and moving in, t = 0
    near3({ 0.5, 42.5, 0.4875 }, { e:position() })
  end)

  it("entityPhysicsCheckOnGround / NotOnGround / NotOnGroundHitUp", function()
    local e = moved(flat { { 0, 40, 0 } }, { 0, 50, 0 }, { 0, -20, 0 })
    assert.is_true(e.on_ground)
    e = moved(flat(), { 0, 50, 0 }, { 0, -1, 0 })
    assert.is_false(e.on_ground)
    e = moved(flat { { 0, 60, 0 } }, { 0, 50, 0 }, { 0, 20, 0 })
    assert.is_false(e.on_ground)
    assert.is_true(e.collided_vertically)
  end)

  it("entityPhysicsCheckStairTop and StairTopSmall: against the stair's upper step: (0.4, 42.5, 0.8)", function()
    -- standing on the lower step's top: [still] sliding on it is no hit
    near3({ 0.4, 42.5, 0.8 }, physics(flat { { 0, 42, 0, "acacia_stairs" } }, { 0.4, 42.5, 0.9 }, { 0, 0, -1.2 }))
    near3({ 0.4, 42.5, 0.8 }, physics(flat { { 0, 42, 0, "acacia_stairs" } }, { 0.4, 42.5, 0.9 }, { 0, 0, -0.2 }))
  end)

  it("entityPhysicsCheckSlide: three stones along z at x 1, by (11,0,10): (11, 42, 0.7)", function()
    near3({ 11, 42, 0.7 }, physics(flat { { 1, 43, 1 }, { 1, 43, 2 }, { 1, 43, 3 } }, { 0, 42, 0 }, { 11, 0, 10 }))
  end)

  it("entityPhysicsSmallMoveCollide: stone (1,43,1), from (0.6,42,0) by (0.3,0,0) (Minestom: 0.7)", function()
    -- DIFFERS, not a convention of ours: the box (z -0.3 .. 0.3) and the stone (z 1 .. 2)
    -- are 0.7 apart on the still Z axis; no box lies in the path, so the whole move is
    -- made: x = 0.9. We see no geometric reason for Minestom's stop at 0.7.
    local w = flat { { 1, 43, 1 } }
    assert.are.equal(0, #w:boxes_in(C(0.3, 42, -0.3, 1.2, 43.95, 0.3)))
    near3({ 0.9, 42, 0 }, physics(w, { 0.6, 42, 0 }, { 0.3, 0, 0 }))
  end)

  -- The C cases move a zero-size box (BoundingBox.ZERO, which no entity of ours can
  -- be: a slide on world:sweep here) at y = 42 past a stone in the cell row y = 42.
  for i, case in ipairs {
    { { 1, 42, 0 }, { 0.7, 42, 0.5 }, { 0.6, 0, 0.6 }, { 1, 42, 1.1 } },
    { { 0, 42, 1 }, { 0.5, 42, 0.7 }, { 0.6, 0, 0.6 }, { 1.1, 42, 1 } },
    { { 1, 42, 1 }, { 0.8, 42, 1.3 }, { 0.6, 0, -0.6 }, { 1, 42, 0.7 } },
    { { 0, 42, 0 }, { 0.7, 42, 1.1 }, { 0.6, 0, -0.6 }, { 1.3, 42, 1 } },
    { { 0, 42, 1 }, { 1.1, 42, 1.3 }, { -0.6, 0, -0.6 }, { 1, 42, 0.7 } },
    { { 1, 42, 0 }, { 1.3, 42, 1.1 }, { -0.6, 0, -0.6 }, { 0.7, 42, 1 } },
    { { 0, 42, 0 }, { 1.1, 42, 0.7 }, { -0.6, 0, 0.6 }, { 1, 42, 1.3 } },
    { { 1, 42, 1 }, { 1.3, 42, 0.8 }, { -0.6, 0, 0.6 }, { 0.7, 42, 1 } },
  } do
    it(("entityPhysicsSmallMoveC%d: a point from %s by %s (Minestom: %s)"):format(i - 1, fmt(case[2]),
      fmt(case[3]), fmt(case[4])), function()
      local w = flat { case[1] }
      local p, v = case[2], case[3]
      -- DIFFERS [still]: the point's y = 42 is the plane of the stone's bottom face:
      -- touching on the still Y axis is never a hit, the point passes the whole move
      near3({ p[1] + v[1], p[2], p[3] + v[3] }, slide(w, C(p[1], p[2], p[3], p[1], p[2], p[3]), v))
      -- lifted into the stone's height (y = 42.5), we agree with Minestom
      local up = slide(w, C(p[1], 42.5, p[3], p[1], 42.5, p[3]), v)
      near3({ case[4][1], 42.5, case[4][3] }, up)
    end)
  end

  for i, case in ipairs {
    { { 1, 43, 0 }, { 0.51, 42.51, 0.5 }, { { 1.08, 43, 1.07 }, { 1.0, 43.08, 1.07 } }, { 1.08, 43, 1.07 } },
    { { 0, 43, 1 }, { 0.50, 42.51, 0.51 }, { { 1.07, 43, 1.08 }, { 1.07, 43.08, 1.0 } }, { 1.07, 43, 1.08 } },
    { { 1, 43, 1 }, { 0.51, 42.50, 0.51 }, { { 1.0, 43.08, 1.08 }, { 1.08, 43.0, 1.08 }, { 1.08, 43.08, 1.0 } },
      { 1.08, 43, 1.08 } },
  } do
    it(("entityPhysicsSmallMoveC%dE: a point from %s by (0.57, 0.57, 0.57) into stone %s"):format(i - 1,
      fmt(case[2]), fmt(case[1])), function()
      -- Minestom accepts any of case[3] (within 0.01); ours is case[4]: the gaps 0.49
      -- against 43 - 42.51 (0.49000000000000199 in binary) put Y last, a face: Y stops
      local p = case[2]
      local got = slide(flat { case[1] }, C(p[1], p[2], p[3], p[1], p[2], p[3]), { 0.57, 0.57, 0.57 })
      near3(case[4], got)
      local one = false
      for _, q in ipairs(case[3]) do
        if math.abs(q[1] - got[1]) < 0.01 and math.abs(q[2] - got[2]) < 0.01 and math.abs(q[3] - got[3]) < 0.01 then
          one = true
        end
      end
      assert.is_true(one)
    end)
  end

  it("entityPhysicsCheckNoCollision / BlockMiss: (0,0,10) and, between two stones, (10,0,10) go the whole way",
    function()
    near3({ 0, 42, 10 }, physics(flat(), { 0, 42, 0 }, { 0, 0, 10 }))
    -- the box's z range leaves stone (2,43,0) (at t = 0.13) before its x range gets
    -- there (t = 0.17), and symmetrically: nothing is hit
    near3({ 10, 42, 10 }, physics(flat { { 0, 43, 2 }, { 2, 43, 0 } }, { 0, 42, 0 }, { 10, 0, 10 }))
  end)

  it("entityPhysicsCheckBlockDirections: a stone on each side, 10 each way: 0.2 from each", function()
    local w = flat { { 0, 43, 1 }, { 1, 43, 0 }, { 0, 43, -1 }, { -1, 43, 0 }, { 0, 41, 0 }, { 0, 44, 0 } }
    near3({ 0.7, 42, 0.5 }, physics(w, { 0.5, 42, 0.5 }, { 10, 0, 0 }))
    near3({ 0.5, 42.05, 0.5 }, physics(w, { 0.5, 42, 0.5 }, { 0, 10, 0 }))
    near3({ 0.5, 42, 0.7 }, physics(w, { 0.5, 42, 0.5 }, { 0, 0, 10 }))
    near3({ 0.3, 42, 0.5 }, physics(w, { 0.5, 42, 0.5 }, { -10, 0, 0 }))
    near3({ 0.5, 42, 0.5 }, physics(w, { 0.5, 42, 0.5 }, { 0, -10, 0 })) -- [touch-in]: t = 0
    near3({ 0.5, 42, 0.3 }, physics(w, { 0.5, 42, 0.5 }, { 0, 0, -10 }))
  end)

  it("entityPhysicsCheckLargeVelocityMiss / Hit: 304 blocks on X, through air or onto stone (160,43,5)", function()
    near3({ 309, 42, 5 }, physics(flat(), { 5, 42, 5 }, { 19 * 16, 0, 0 }))
    near3({ 159.7, 42, 5 }, physics(flat { { 160, 43, 5 } }, { 5, 42, 5 }, { 19 * 16, 0, 0 }))
  end)

  it("entityPhysicsCheckNoMove (and the cached variants): a zero move stays at (5, 42, 5)", function()
    near3({ 5, 42, 5 }, physics(flat(), { 5, 42, 5 }, { 0, 0, 0 }))
    -- NoMoveLargeVelocityHit, LargeVelocityHitNoMove: a zero move before or after the hit
    local w = flat { { 160, 43, 5 } }
    local e = zombie(w, 5, 42, 5)
    e:move_swept(0, 0, 0)
    e:move_swept(19 * 16, 0, 0)
    e:move_swept(0, 0, 0)
    near3({ 159.7, 42, 5 }, { e:position() })
  end)

  it("entityPhysicsRepeatedCollision: stepping (0.1, -0.01, 0) in a walled pit until stuck: (0.7, 42, 0.5)", function()
    local w = flat {
      { 0, 41, 0 }, { 1, 42, 0 }, { 0, 42, 1 }, { 0, 42, -1 }, { -1, 42, 0 },
      { 1, 43, 0 }, { 0, 43, 1 }, { 0, 43, -1 }, { -1, 43, 0 },
    }
    local e = zombie(w, 0.5, 43.1, 0.5)
    e:move_swept(0, 0, 0)
    local n = 0
    repeat
      local prev = { e:position() }
      e:move_swept(0.1, -0.01, 0)
      n = n + 1
      local p = { e:position() }
    until (p[1] == prev[1] and p[2] == prev[2] and p[3] == prev[3]) or e.y < 42 or n > 1000
    near3({ 0.7, 42, 0.5 }, { e:position() })
  end)

  it("entityPhysicsCheckCollisionDownCache / GravityCached: (0,0,10) then down onto the flat: (0, 40, 0.7)", function()
    local w = flat { { 0, 43, 1 } }
    local e = zombie(w, 0, 42, 0)
    e:move_swept(0, 0, 10)
    e:move_swept(0, -10, 0)
    near3({ 0, 40, 0.7 }, { e:position() })
    for _ = 1, 50 do
      assert.are.same({ 0, 0, 0 }, { e:move_swept(0, -1.7, 0) }) -- [touch-in] every time
    end
    near3({ 0, 40, 0.7 }, { e:position() })
  end)
end)
