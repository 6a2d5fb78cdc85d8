-- Water, lava and ladders under the MC-CPP rules' default integrator, "exact"
-- (csrc/core/mccpp_exact.c): per second, with constants derived from Beta 1.7.3's
-- per-tick behaviour at 20 ticks/s (csrc/core/rules.c, bp_rules_mccpp), the same
-- liquid and ladder tests as Beta's tick (csrc/core/liquid.h), and the same outcomes
-- at any dt from 1/240 to 1/20 s. integrator = "mccpp" (the documents' algorithm) has
-- none of them.
local bp = require "blockphys"
local H = require "helpers.world"

local f32 = H.f32
local TICKS = 20 -- Beta's ticks per second

-- The frame times the outcomes must not depend on; inputs change and measurements are
-- taken at multiples of 0.5 s, a whole number of frames of each.
local DTS = { 1 / 240, 1 / 144, 1 / 60, 1 / 30, 1 / 20 }

local function mccpp(w, x, y, z, rules)
  return w:spawn { x = x, y = y, z = z, width = 0.6, height = 1.8, rules = rules or bp.rules.mccpp() }
end

local function within(expected, got, rel, what)
  assert(math.abs(got - expected) <= rel * math.abs(expected),
    ("%s: %.6f, expected %.6f within %g%%"):format(what or "value", got, expected, rel * 100))
end

-- A clock for one entity's world at frame time dt: run_to(t) steps up to time t;
-- crossings of watched heights are timed by linear interpolation between the frames.
local function clock(w, e, dt)
  local steps, c = 0, { at = {} }
  local watch = {}
  function c.watch(name, level, dir) watch[#watch + 1] = { name, level, dir } end
  function c.run_to(t, each)
    while steps < math.floor(t / dt + 0.5) do
      local y0 = e.y
      w:step(dt)
      steps = steps + 1
      for _, x in ipairs(watch) do
        local name, level, dir = x[1], x[2], x[3]
        if not c.at[name] and (dir * (level - y0) > 0) and (dir * (e.y - level) >= 0) then
          c.at[name] = (steps - 1) * dt + dt * (level - y0) / (e.y - y0)
        end
      end
      if each then each() end
    end
  end
  return c
end

describe("MC-CPP liquids and ladders (integrator \"exact\")", function()
  describe("constants derived from Beta's per tick at 20 ticks/s", function()
    -- Beta's water branch moves with m, then m' = q m + a - g per tick (q the drag, a
    -- what the tick adds before the move, g what it subtracts after the drag): the
    -- velocity relaxes by q per tick toward (a - g) / (1 - q), as the exact solution
    -- at the rate -ln(q) x 20 /s does between tick boundaries.
    it("water: rate -ln(0.8F) x 20, sink 0.02 / (1 - 0.8F), swim (0.04F - 0.02) / (1 - 0.8F)", function()
      local r = bp.rules.mccpp()
      local q = f32(0.8)
      assert.is_near(-math.log(q) * TICKS, r.water_rate, 1e-12)              -- 4.4629 /s
      assert.is_near(f32(0.02) * f32(0.98) / (1 - q) * TICKS, r.water_speed, 1e-12) -- 1.96 b/s
      assert.is_near(0.02 / (1 - q) * TICKS, r.water_sink, 1e-12)            -- 2 b/s
      assert.is_near((f32(0.04) - 0.02) / (1 - q) * TICKS, r.water_swim, 1e-12) -- 2 b/s
      assert.is_near(4.4629, r.water_rate, 1e-4)
      assert.is_near(1.96, r.water_speed, 1e-6)
      assert.is_near(2, r.water_sink, 1e-6)
      assert.is_near(2, r.water_swim, 1e-6)
    end)

    it("lava: rate ln 2 x 20, sink 0.02 / 0.5, swim (0.04F - 0.02) / 0.5; breach 0.3F x 20", function()
      local r = bp.rules.mccpp()
      assert.is_near(math.log(2) * TICKS, r.lava_rate, 1e-12) -- 13.863 /s
      assert.is_near(f32(0.02) * f32(0.98) / 0.5 * TICKS, r.lava_speed, 1e-12) -- 0.784 b/s
      assert.is_near(0.02 / 0.5 * TICKS, r.lava_sink, 1e-12) -- 0.8 b/s
      assert.is_near((f32(0.04) - 0.02) / 0.5 * TICKS, r.lava_swim, 1e-12) -- 0.8 b/s
      assert.is_near(f32(0.3) * TICKS, r.breach_speed, 1e-12) -- 6 b/s
      assert.equal(f32(0.6), r.breach_height)
    end)

    it("ladders: 0.15F b/t = 3 b/s across, 0.15 b/t = 3 b/s down, climb (0.2 - 0.08) x 0.98F", function()
      local r = bp.rules.mccpp()
      assert.is_near(f32(0.15) * TICKS, r.ladder_speed, 1e-12)
      assert.is_near(0.15 * TICKS, r.ladder_descent, 1e-12)
      assert.is_near((0.2 - 0.08) * f32(0.98) * TICKS, r.ladder_climb, 1e-12) -- 2.352 b/s
      -- Beta's own stay per tick
      assert.equal(f32(0.15), bp.rules.beta173().ladder_speed)
      assert.equal(0.2, bp.rules.beta173().ladder_climb)
    end)
  end)

  describe("steady speeds at every dt", function()
    local function column(liquid)
      local w = H.world()
      w:fill(-4, 0, -4, 4, 300, 60, liquid)
      return w
    end

    for _, dt in ipairs(DTS) do
      local name = ("dt = 1/%d"):format(math.floor(1 / dt + 0.5))
      it(name .. ": water sinks at 2 b/s, swims up at 2 b/s, across at 1.96 b/s", function()
        local w = column("water")
        local e = mccpp(w, 0.5, 150, 0.5)
        e.forward = 1 -- yaw 0: +Z
        for _ = 1, math.floor(3 / dt + 0.5) do w:step(dt) end
        assert.is_true(e.in_water)
        assert.is_false(e.in_lava)
        assert.is_near(-e.rules.water_sink, e.vy, 1e-4)   -- e^(-4.46 x 3) of the entry speed
        assert.is_near(e.rules.water_speed, e.vz, 1e-4)
        e.jumping = true
        for _ = 1, math.floor(3 / dt + 0.5) do w:step(dt) end
        assert.is_near(e.rules.water_swim, e.vy, 1e-4)
      end)

      it(name .. ": lava sinks at 0.8 b/s and swims up at 0.8 b/s", function()
        local w = column("lava")
        local e = mccpp(w, 0.5, 150, 0.5)
        for _ = 1, math.floor(2 / dt + 0.5) do w:step(dt) end
        assert.is_true(e.in_lava)
        assert.is_false(e.in_water)
        assert.is_near(-0.8, e.vy, 1e-6)
        e.jumping = true
        for _ = 1, math.floor(2 / dt + 0.5) do w:step(dt) end
        assert.is_near(0.8, e.vy, 1e-6)
      end)
    end
  end)

  -- A pool: stone floor with its top at y = 60, water in the cells y = 60 .. 65 (the
  -- surface at 66) for z <= 0, a shore of stone for z >= 1 whose top is level with the
  -- surface (as Beta's breach spec, rules_beta173_spec). The walker drops from y = 70
  -- (4 above the surface) at z = -2.5, sinks to the floor, holds jump from t = 2.5 s
  -- (swims up, then bobs at the surface with its feet about 0.4 below it, where Beta's
  -- water test box leaves the water), walks toward the shore from t = 7 s, breaches at
  -- the wall (vy = breach_speed) and lands on the shore; jump is let go once it is out
  -- of the water rising from the breach (so that it does not hop on the shore).
  describe("a walker falls into a pool, sinks, swims up and breaches onto the shore", function()
    local function pool_run(dt)
      local w = H.world()
      w:fill(-8, 59, -8, 8, 59, 40, "stone")
      w:fill(-8, 60, -8, 8, 65, 0, "water")
      w:fill(-8, 60, 1, 8, 65, 40, "stone")
      local e = mccpp(w, 0.5, 70, -2.5)
      local c, r = clock(w, e, dt), {}
      c.watch("entry", 65.6, -1) -- the water test box reaches the water (66 - 0.401)
      c.watch("sunk_to_61", 61, -1)
      c.watch("up_to_63", 63, 1)
      c.watch("out", 66, 1)
      c.run_to(1.0)
      r.y1 = e.y
      r.fall = e.fall_distance
      c.run_to(1.5)
      r.vy15 = e.vy
      c.run_to(2.5)
      r.floor_y, r.floor_ground, r.floor_water = e.y, e.on_ground, e.in_water
      e.jumping = true
      c.run_to(6.5)
      local lo, hi = math.huge, -math.huge
      c.run_to(7.0, function()
        lo, hi = math.min(lo, e.y), math.max(hi, e.y)
      end)
      r.bob_lo, r.bob_hi = lo, hi
      e.forward = 1 -- yaw 0: +Z, toward the shore
      local top = -math.huge
      c.run_to(10.0, function()
        top = math.max(top, e.y)
        if e.jumping and e.vy >= 3 and not e.in_water then e.jumping = false end
      end)
      r.top, r.y10, r.z10, r.ground10, r.water10 = top, e.y, e.z, e.on_ground, e.in_water
      for k, v in pairs(c.at) do r[k] = v end
      return r
    end

    local ref = pool_run(1 / 240)

    it("at dt = 1/240: the outcomes", function()
      -- in the air, then the water: its test box reaches the water at 0.544 s
      assert.is_near(0.544, ref.entry, 0.001)
      assert.is_near(62.040, ref.y1, 0.001)
      -- reset at the start of every substep in water (Beta: of every tick): only the
      -- last substep's drop remains
      assert.is_true(ref.fall < 0.02)
      assert.is_near(-2.191, ref.vy15, 0.001) -- toward -water_sink = -2 b/s
      assert.is_near(1.360, ref.sunk_to_61, 0.001)
      assert.is_near(60, ref.floor_y, 1e-6) -- on the floor (the swept resolver's gap)
      assert.is_true(ref.floor_ground and ref.floor_water)
      -- swimming up from the floor at 2 b/s: 3 blocks in about 1.72 s
      assert.is_near(4.224, ref.up_to_63, 0.001)
      -- bobbing: the feet within 0.1 of 65.6 (Beta's water test leaves the water at
      -- 66 - 0.4F - 0.001 = 65.599)
      assert.is_true(ref.bob_lo > 65.5 and ref.bob_hi < 65.7, ref.bob_lo .. " " .. ref.bob_hi)
      -- breach: out over the surface at 8.79 s, the feet 0.16 above the shore's top, and
      -- standing on the shore, walking at t = 10 s
      assert.is_near(8.79, ref.out, 0.01)
      assert.is_near(66.16, ref.top, 0.01)
      assert.is_near(66, ref.y10, 1e-6)
      assert.is_true(ref.ground10)
      assert.is_false(ref.water10)
      assert.is_near(5.04, ref.z10, 0.01)
    end)

    for _, dt in ipairs(DTS) do
      it(("the same within 2%% at dt = 1/%d"):format(math.floor(1 / dt + 0.5)), function()
        local r = pool_run(dt)
        for _, k in ipairs { "entry", "sunk_to_61", "up_to_63", "out" } do
          within(ref[k], r[k], 0.02, "time " .. k)
        end
        -- heights: above the pool's floor (60); speeds
        for _, k in ipairs { "y1", "bob_lo", "bob_hi", "top", "y10" } do
          within(ref[k] - 60, r[k] - 60, 0.02, k .. " above the floor")
        end
        assert.is_near(60, r.floor_y, 1e-4) -- on it, up to the swept resolver's gap
        within(ref.vy15, r.vy15, 0.02, "vy at 1.5 s")
        within(ref.z10 - 0.7, r.z10 - 0.7, 0.02, "distance walked on the shore by 10 s")
        assert.are.same({ true, true, true, false }, { r.floor_ground, r.floor_water,
                                                       r.ground10, r.water10 })
      end)
    end
  end)

  -- A ladder column (Beta's ladder box, 0.125 thick on the +Z side of its cell) from y =
  -- 60 against a stone wall at z = 1, on a floor with its top at 60. The walker stands
  -- at the ladder's foot; pushes into it (forward, yaw 0: +Z) from t = 0.5 s to 2.5 s:
  -- climbs at ladder_climb = 2.352 b/s; then sneaks without input until 4.5 s: holds on
  -- (the climb's speed runs out under gravity: + 2.352^2 / 64 = 0.0864); then lets go:
  -- slides down at ladder_descent = 3 b/s.
  describe("a walker climbs a ladder, holds on while sneaking, slides down", function()
    local function ladder_run(dt, rules)
      local w = H.world()
      w:fill(-4, 59, -4, 4, 59, 4, "stone")
      w:fill(-4, 60, 1, 4, 80, 1, "stone")
      w:fill(0, 60, 0, 0, 79, 0, "ladder")
      local e = mccpp(w, 0.5, 60, 0.5, rules)
      local c, r = clock(w, e, dt), {}
      c.watch("at_62", 62, 1)
      c.run_to(0.5)
      e.forward = 1
      c.run_to(2.5)
      r.climbed, r.vy_climb = e.y, e.vy
      e.forward, e.sneaking = 0, true
      c.run_to(3.5)
      r.held1 = e.y
      c.run_to(4.5)
      r.held2, r.fall = e.y, e.fall_distance
      e.sneaking = false
      c.run_to(5.0)
      r.down, r.vy_down = e.y, e.vy
      r.at_62 = c.at.at_62
      return r
    end

    local ref = ladder_run(1 / 240)

    it("at dt = 1/240: the outcomes", function()
      -- it walks 0.075 to the ladder's box (touching it at 0.555 s), then climbs
      assert.is_near(0.555, ref.at_62 - 2 / 2.352, 0.001)
      assert.is_near(64.574, ref.climbed, 0.001)
      assert.is_near(2.352, ref.vy_climb, 1e-6)
      assert.is_near(ref.climbed + 2.352 ^ 2 / 64, ref.held1, 1e-6) -- 64.660
      assert.equal(ref.held1, ref.held2) -- held still
      assert.equal(0, ref.fall)
      assert.is_near(-3, ref.vy_down, 1e-12)
      assert.is_near(63.303, ref.down, 0.001)
    end)

    for _, dt in ipairs(DTS) do
      for _, resolver in ipairs { "swept", "axis" } do
        it(("the same within 2%% at dt = 1/%d (%s)"):format(math.floor(1 / dt + 0.5), resolver),
          function()
          local r = ladder_run(dt, bp.rules.mccpp { resolver = resolver })
          within(ref.at_62, r.at_62, 0.02, "time at 62")
          for _, k in ipairs { "climbed", "held1", "held2", "down" } do
            within(ref[k] - 60, r[k] - 60, 0.02, k .. " above the floor")
          end
          assert.equal(r.held1, r.held2)
          assert.is_near(2.352, r.vy_climb, 1e-6)
          assert.is_near(-3, r.vy_down, 1e-12)
        end)
      end
    end
  end)

  describe("other rules", function()
    it("no ground jump in water: jump held swims instead", function()
      local w = H.world()
      w:fill(-4, 59, -4, 4, 59, 4, "stone")
      w:fill(-4, 60, -4, 4, 64, 4, "water")
      local e = mccpp(w, 0.5, 60, 0.5)
      for _ = 1, 20 do w:step(1 / 20) end
      assert.is_true(e.on_ground and e.in_water)
      e.vy = 0
      e:native_jump()
      assert.equal(0, e.vy)
      e.jumping = true
      w:step(1 / 20)
      -- from 0 toward water_swim at water_rate for 0.05 s: 2 (1 - 0.8F) = 0.4 b/s
      assert.is_near(e.rules.water_swim * (1 - math.exp(-e.rules.water_rate / 20)), e.vy, 1e-12)
    end)

    it("flying ignores liquids (the flags are still set)", function()
      local w = H.world()
      w:fill(-4, 0, -4, 4, 100, 4, "water")
      local e = mccpp(w, 0.5, 50, 0.5)
      e.flying = true
      w:step(0.05)
      assert.is_true(e.in_water)
      assert.equal(50, e.y) -- no gravity, no sinking
    end)

    it("a fall into water resets the fall distance; in the air it grows", function()
      local w = H.world()
      w:fill(-4, 0, -4, 4, 0, 4, "stone")
      w:fill(-4, 1, -4, 4, 3, 4, "water")
      local e = mccpp(w, 0.5, 20, 0.5)
      for _ = 1, 10 do w:step(0.05) end
      assert.is_true(e.fall_distance > 3) -- 0.5 s of falling: 3.7 blocks
      for _ = 1, 40 do w:step(0.05) end
      assert.is_true(e.in_water)
      assert.equal(0, e.fall_distance)
    end)
  end)

  describe("integrator = \"mccpp\" has none (the documents' update, bit for bit)", function()
    it("falls through water to the pool's floor; in_water stays false", function()
      local w = H.world()
      w:fill(-4, 59, -4, 4, 59, 4, "stone")
      w:fill(-4, 60, -4, 4, 65, 4, "water")
      local e = mccpp(w, 0.5, 70, 0.5, bp.rules.mccpp { integrator = "mccpp" })
      for _ = 1, 40 do w:step(0.05) end
      assert.is_false(e.in_water)
      assert.is_true(e.on_ground)
      assert.is_true(e.y < 60.01)
    end)

    it("pushes into a ladder without climbing", function()
      local w = H.world()
      w:fill(-4, 59, -4, 4, 59, 4, "stone")
      w:fill(-4, 60, 1, 4, 80, 1, "stone")
      w:fill(0, 60, 0, 0, 79, 0, "ladder")
      local e = mccpp(w, 0.5, 60, 0.5, bp.rules.mccpp { integrator = "mccpp" })
      e.forward = 1
      for _ = 1, 60 do w:step(1 / 60) end
      assert.is_true(e.y < 60.01)
      assert.is_true(e.z > 0.57) -- against the ladder's box
    end)
  end)
end)
