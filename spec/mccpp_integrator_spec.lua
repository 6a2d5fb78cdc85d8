-- The MC-CPP rules' default integrator, "exact" (csrc/core/mccpp_exact.c): substeps
-- of at most rules.max_dt, each the exact solution of the state's linear ODE
-- dv/dt = c - k v per axis, with constants derived from the documents' integrator
-- (MC-CPP's entity physics document (docs/sources.md)) at rules.reference_dt = 1/60 s. Its walking,
-- jumping and falling agree with the documents' integrator at 60 fps, and with
-- themselves at any dt from 1/240 to 1/20 s; integrator = "mccpp" is the documents'
-- algorithm (rules_mccpp_spec.lua pins it).
local bp = require "blockphys"
local C = require "helpers.compat"

local G, H, WALK, TAU = 32, 1.25, 4.317, 1 / 60
local raises_here = require("helpers.world").raises_here

-- The frame times the integrator must not depend on. Measurements are taken at times
-- that are whole numbers of frames of each (multiples of 0.5 s, or 1 s).
local DTS = { 1 / 240, 1 / 144, 1 / 60, 1 / 30, 1 / 20 }

-- The derived constants (mccpp_exact.c): a documents' friction or drag f (1/s) acts
-- per frame of TAU as the factor 1 - f TAU, i.e. the rate -ln(1 - f TAU) / TAU.
local function rate(f) return -math.log(1 - f * TAU) / TAU end
local K_GROUND, K_AIR, K_FALL = rate(20), rate(1.8), rate(0.4) -- 24.33, 1.828, 0.4013 /s
-- The documents' falling map at 60 fps, u' = (1 - 0.4 TAU)(u - G TAU), settles at
-- -G (1 - 0.4 TAU) / 0.4 = -79.467 b/s; from rest, after n frames the velocity is
-- -VT (1 - (1 - 0.4 TAU)^n): after 1 s (60 frames) -26.2699 b/s.
local VT = G * (1 - 0.4 * TAU) / 0.4
local V1 = -VT * (1 - (1 - 0.4 * TAU) ^ 60)
-- The documents' jump at 60 fps: explicit Euler from v0 = sqrt(2 H G) = 8.944 b/s; with
-- v0 / (G TAU) = N + r the apex is H + (G TAU^2 / 2)(N + 2r - r^2) = 1.325322 (the
-- formula rules_mccpp_spec checks); the exact integrator launches at sqrt(2 G apex).
local APEX = (function()
  local q = math.sqrt(2 * H * G) / (G * TAU)
  local n = math.floor(q)
  local r = q - n
  return H + G * TAU * TAU / 2 * (n + 2 * r - r * r)
end)()

local function floor_world()
  local w = bp.World()
  w:define_block { name = "stone" }
  w:fill(-8, 63, -8, 700, 63, 8, "stone") -- top at y = 64
  return w
end

local function spawn(w, rules, x, y, z)
  return w:spawn { x = x or 0.5, y = y or 64, z = z or 0.5, width = 0.6, height = 1.8,
                   rules = rules or bp.rules.mccpp() }
end

local function frames(t, dt) return math.floor(t / dt + 0.5) end

local function run(w, t, dt)
  for _ = 1, frames(t, dt) do w:step(dt) end
end

-- Walking speed (b/s): the distance along +X over one second after `warm` seconds.
local function walk_speed(dt, integrator, warm)
  local w = floor_world()
  local e = spawn(w, bp.rules.mccpp { integrator = integrator })
  e.forward, e.yaw = 1, -90 -- yaw -90 faces +X
  run(w, warm or 2, dt)
  local x = e.x
  run(w, 1, dt)
  return e.x - x
end

-- The apex of a jump from the floor (blocks above the floor), as the frames sample it.
local function apex(dt, rules)
  local w = floor_world()
  local e = spawn(w, rules)
  run(w, 0.5, dt)
  local y0 = e.y
  e.jumping = true
  local top = e.y
  for _ = 1, frames(1, dt) do
    w:step(dt)
    e.jumping = false
    top = math.max(top, e.y)
  end
  return top - y0
end

-- A fall from rest in open air: vy after 1 s, the distance fallen after 1 s and 3 s.
local function fall(dt, integrator)
  local w = bp.World()
  local e = spawn(w, bp.rules.mccpp { integrator = integrator }, 0.5, 1000, 0.5)
  run(w, 1, dt)
  local v1, d1 = e.vy, 1000 - e.y
  run(w, 2, dt)
  return v1, d1, 1000 - e.y
end

local function within(expected, got, rel, what)
  assert(math.abs(got - expected) <= rel * math.abs(expected),
    ("%s: %.6f, expected %.6f within %g%%"):format(what or "value", got, expected, rel * 100))
end

describe("MC-CPP integrator \"exact\" (the default)", function()
  describe("rules", function()
    it("is the default; integrator = \"mccpp\" selects the documents' update", function()
      local r = bp.rules.mccpp()
      assert.are.same({ "exact", 0.05, 1 / 60 }, { r.integrator, r.max_dt, r.reference_dt })
      assert.equal("mccpp", bp.rules.mccpp { integrator = "mccpp" }.integrator)
      local w = bp.World()
      local e = spawn(w)
      assert.equal("exact", e.rules.integrator)
      e.rules.integrator = "mccpp"
      assert.equal("mccpp", e.rules.integrator)
      assert.equal("mccpp", bp.rules.copy(e.rules).integrator)
    end)

    it("refuses other integrators, a Beta integrator and max_dt outside [0.001, 1]", function()
      raises_here("bp.rules.mccpp: rule 'integrator' must be one of \"exact\", \"mccpp\"",
        function() bp.rules.mccpp { integrator = "euler" } end)
      raises_here("bp.rules.beta173: rule 'integrator' belongs to model mccpp, not beta173",
        function() bp.rules.beta173 { integrator = "mccpp" } end)
      raises_here("bp.rules.mccpp: rule 'max_dt' must be a number in [0.001, 1]",
        function() bp.rules.mccpp { max_dt = 0 } end)
      raises_here("bp.rules.mccpp: rule 'reference_dt' must be a number in [0.001, 1]",
        function() bp.rules.mccpp { reference_dt = 2 } end)
      local w = bp.World()
      local b = w:spawn { x = 0, y = 0, z = 0 }
      raises_here("entity.rules: rule 'integrator' belongs to model mccpp, not beta173",
        function() b.rules.integrator = "exact" end)
      local m = spawn(w)
      raises_here("entity.rules: rule 'integrator' must be one of \"exact\", \"mccpp\"",
        function() m.rules.integrator = 1 end)
      assert.is_nil(bp.rules.beta173().integrator)
    end)
  end)

  -- The reference: the documents' integrator at 60 fps (integrator = "mccpp").
  describe("at 60 fps, as the documents' integrator at 60 fps (within 2%)", function()
    it("walks at walk_speed = 4.317 b/s, as the documents do at any dt up to 0.05", function()
      local doc = walk_speed(TAU, "mccpp")
      assert.is_near(WALK, doc, 1e-9)
      assert.is_near(doc, walk_speed(TAU, "exact"), 1e-9)
    end)

    it("speeds up from rest as the documents do: rate -ln(1 - 20/60) x 60 = 24.33 /s", function()
      -- The documents' n-th frame moves with WALK (1 - (2/3)^n); the exact solution
      -- WALK (1 - e^(-K t)) takes the same values at the frame ends and moves by its
      -- integral, which the documents' sums lead by about half a frame.
      local function from_rest(integrator, t)
        local w = floor_world()
        local e = spawn(w, bp.rules.mccpp { integrator = integrator })
        run(w, 0.5, TAU) -- settled on the floor
        e.forward, e.yaw = 1, -90
        local x = e.x
        run(w, t, TAU)
        return e.x - x, e.vx
      end
      local doc, docv = from_rest("mccpp", 0.5)
      local got, v = from_rest("exact", 0.5)
      within(doc, got, 0.02, "distance in 0.5 s") -- 2.0146 and 1.9811 blocks (1.7%)
      assert.is_near(WALK * (1 - math.exp(-K_GROUND * 0.5)), v, 1e-9)
      assert.is_true(docv <= WALK) -- theirs is read after the decay
      assert.is_near(WALK * (0.5 - (1 - math.exp(-K_GROUND * 0.5)) / K_GROUND), got, 1e-9)
    end)

    it("jumps to the documents' 60-fps apex, 1.25 + its Euler overshoot = 1.3253", function()
      local doc = apex(TAU, bp.rules.mccpp { integrator = "mccpp" })
      assert.is_near(APEX, doc, 1e-9)
      within(doc, apex(TAU), 0.02, "apex")
      -- the launch speed: sqrt(2 g apex) = 9.2098 b/s
      local w = floor_world()
      local e = spawn(w)
      run(w, 0.5, TAU)
      e:native_jump()
      assert.is_near(math.sqrt(2 * G * APEX), e.vy, 1e-12)
      assert.is_near(9.20981, e.vy, 1e-5)
    end)

    it("falls as the documents do: the same speed, distances within 2%", function()
      local dv1, dd1, dd3 = fall(TAU, "mccpp")
      local v1, d1, d3 = fall(TAU, "exact")
      assert.is_near(V1, dv1, 1e-9)      -- -26.2699 b/s after 1 s
      assert.is_near(V1, v1, 1e-9)       -- the same at the frame ends
      within(dd1, d1, 0.02, "fallen in 1 s") -- 13.792 and 14.011 (the documents move
                                              -- with the frame's first velocity)
      within(dd3, d3, 0.02, "fallen in 3 s") -- 99.33 and 99.79
      -- the fall's terminal speed: G (1 - 0.4 TAU) / 0.4 = 79.467 b/s, from the rate
      -- K_FALL and the drive -G (1 - 0.4 TAU) K_FALL / 0.4
      assert.is_near(-VT * (1 - math.exp(-K_FALL * 1)), v1, 1e-9)
    end)
  end)

  describe("does not depend on the frame rate (1/240 to 1/20 s)", function()
    for _, dt in ipairs(DTS) do
      local name = ("dt = 1/%d"):format(math.floor(1 / dt + 0.5))
      it(name .. ": walks at 4.317 b/s", function()
        local s = walk_speed(dt, "exact")
        within(WALK, s, 0.02, "walking speed")
        assert.is_near(WALK, s, 1e-9) -- at steady state the solution is exact
      end)

      it(name .. ": jumps to the apex 1.3253 (as sampled at the frames)", function()
        local a = apex(dt)
        within(APEX, a, 0.02, "apex")
        -- the parabola is exact; a frame samples it at most G (dt / 2)^2 / 2 low
        assert.is_true(a <= APEX + 1e-9 and a >= APEX - G * dt * dt / 8 - 1e-9)
      end)

      it(name .. ": falls at -26.27 b/s after 1 s, 14.011 blocks in 1 s, 99.795 in 3 s",
        function()
        local v1, d1, d3 = fall(dt, "exact")
        within(V1, v1, 0.02, "speed after 1 s")
        assert.is_near(V1, v1, 1e-9)
        local ref1 = VT * (1 - (1 - math.exp(-K_FALL)) / K_FALL)
        local ref3 = VT * (3 - (1 - math.exp(-3 * K_FALL)) / K_FALL)
        within(ref1, d1, 0.02, "fallen in 1 s")
        within(ref3, d3, 0.02, "fallen in 3 s")
        assert.is_near(ref1, d1, 1e-8)
        assert.is_near(ref3, d3, 1e-8)
      end)
    end

    it("in the air, vx decays at -ln(1 - 1.8 / 60) x 60 = 1.8276 /s at every dt", function()
      for _, dt in ipairs(DTS) do
        local w = bp.World()
        local e = spawn(w, nil, 0, 1000, 0)
        e.vx = 10
        run(w, 1, dt)
        assert.is_near(10 * math.exp(-K_AIR), e.vx, 1e-9) -- 1.608 b/s
        assert.is_near(10 * (1 - math.exp(-K_AIR)) / K_AIR, e.x, 1e-9) -- 4.592 blocks
      end
    end)

    -- The documents' algorithm for comparison: 5.134 b/s at dt = 0.06, 8.245 at 0.1
    -- (docs/mccpp.md), and one 0.25 s frame moves a walker 6.12 blocks.
    it("a 0.25 s frame moves a walker as far as fifteen 1/60 s frames", function()
      local function hitch(frames_of)
        local w = floor_world()
        local e = spawn(w)
        e.forward, e.yaw = 1, -90
        run(w, 2, TAU)
        local x = e.x
        for _, dt in ipairs(frames_of) do w:step(dt) end
        return e.x - x
      end
      local fifteen = {}
      for i = 1, 15 do fifteen[i] = TAU end
      local smooth, hitched = hitch(fifteen), hitch { 0.25 }
      within(smooth, hitched, 0.02, "a 0.25 s frame")
      assert.is_near(WALK * 0.25, smooth, 1e-9) -- 1.07925 blocks both
      assert.is_near(WALK * 0.25, hitched, 1e-9)
      -- the documents' integrator, for the record
      local w = floor_world()
      local e = spawn(w, bp.rules.mccpp { integrator = "mccpp" })
      e.forward, e.yaw = 1, -90
      run(w, 2, TAU)
      local x = e.x
      w:step(0.25)
      assert.is_near(6.11575, e.x - x, 1e-9)
    end)

    it("from rest, a 0.25 s frame walks as far as fifteen 1/60 s frames", function()
      local function from_rest(dt)
        local w = floor_world()
        local e = spawn(w)
        run(w, 0.5, TAU)
        e.forward, e.yaw = 1, -90
        local x = e.x
        run(w, 0.25, dt)
        return e.x - x
      end
      within(from_rest(TAU), from_rest(0.25), 0.02, "from rest")
      assert.is_near(from_rest(TAU), from_rest(0.25), 1e-9)
    end)

    for _, dt in ipairs { 0.1, 0.25 } do
      it(("on_ground does not flicker while walking at dt = %g"):format(dt), function()
        local w = floor_world()
        local e = spawn(w)
        run(w, 1, dt)
        e.forward, e.yaw = 1, -90
        for _ = 1, frames(3, dt) do
          w:step(dt)
          assert.is_true(e.on_ground)
        end
        -- from rest: WALK (3 - (1 - e^(-3 K)) / K) / 3 = 4.2578 b/s on average
        assert.is_near(WALK * (3 - (1 - math.exp(-3 * K_GROUND)) / K_GROUND) / 3,
          (e.x - 0.5) / 3, 1e-9)
        -- the documents' update flickers there (docs/mccpp.md: dt >= 1 / friction)
        local d = spawn(w, bp.rules.mccpp { integrator = "mccpp" }, 0.5, 64, 4.5)
        run(w, 1, dt)
        d.forward, d.yaw = 1, -90
        local flips, last = 0, d.on_ground
        for _ = 1, frames(3, dt) do
          w:step(dt)
          if d.on_ground ~= last then flips = flips + 1 end
          last = d.on_ground
        end
        assert.is_true(flips > 0)
      end)
    end

    it("another reference_dt reproduces the documents at that frame rate: 1/30 s", function()
      local doc = apex(1 / 30, bp.rules.mccpp { integrator = "mccpp" }) -- 1.4033
      within(doc, apex(1 / 240, bp.rules.mccpp { reference_dt = 1 / 30 }), 0.02, "apex")
      local w = floor_world()
      local e = spawn(w, bp.rules.mccpp { reference_dt = 1 / 30 })
      e.forward, e.yaw = 1, -90
      run(w, 2, 1 / 240)
      local x = e.x
      run(w, 1, 1 / 240)
      assert.is_near(WALK, e.x - x, 1e-9) -- the walking speed is walk_speed at any
    end)
  end)

  describe("substeps", function()
    -- The heading stage runs once per piece of a substep (here nothing splits one; a native
    -- wrapper counts them):
    -- ceil(dt / max_dt) of them, at most 1024.
    local function substeps(dt, rules_over)
      local calls = 0
      local over = rules_over or {}
      over.heading = function(self, s, f, k)
        calls = calls + 1
        return self:native_heading(s, f, k)
      end
      local w = floor_world()
      local e = spawn(w, bp.rules.mccpp(over))
      run(w, 0.2, 0.05)
      calls = 0
      w:step(dt)
      return calls, e
    end

    it("are ceil(dt / max_dt): 1 at dt <= 0.05, 2 at 0.1, 5 at 0.25, 5 with max_dt = 0.01",
      function()
      assert.equal(1, (substeps(1 / 240)))
      assert.equal(1, (substeps(0.05)))
      assert.equal(2, (substeps(0.1)))
      assert.equal(5, (substeps(0.25)))
      assert.equal(5, (substeps(0.05, { max_dt = 0.01 })))
      -- the most: a 1 s step (limits.max_dt) at max_dt = 0.001 (the rule's least)
      assert.equal(1000, (substeps(1, { max_dt = 0.001 })))
    end)

    it("walk 1 s in one step as in 20 steps of 0.05 s (4.140 blocks)", function()
      local w = floor_world()
      local e = spawn(w)
      run(w, 0.5, 0.05)
      e.forward, e.yaw = 1, -90
      local x = e.x
      w:step(1)
      local expected = WALK * (1 - (1 - math.exp(-K_GROUND * 1)) / K_GROUND)
      assert.is_near(expected, e.x - x, 1e-6)
      assert.is_true(e.on_ground)
    end)

    it("keep the step's pre-check: a velocity that moves 1500 blocks in dt is refused", function()
      local w = bp.World()
      local e = spawn(w, nil, 0, 0, 0)
      e.vx = 30000
      raises_here("world:step: entity 1 would move 1500 blocks in one step (at most 1024 per axis)",
        function() w:step(0.05) end)
      assert.are.same({ 0, 0, 0 }, { e:position() })
      w:step(0.01) -- 300 blocks: within the limit (in 1 substep)
      assert.is_true(e.x > 250 and e.x < 300)
    end)

    it("keep each move and the velocity within the limits (walk_speed 1e6 b/s)", function()
      local w = bp.World()
      local e = spawn(w, bp.rules.mccpp { walk_speed = 1e6 }, 0, 0, 0)
      e.forward, e.yaw, e.flying = 1, -90, true
      w:step(0.25) -- 5 substeps: each move at most 1024 blocks
      assert.is_true(e.x > 4000 and e.x <= 5 * 1024)
      assert.equal(1024 / 0.25, e.vx) -- clamped for the next step of 0.25 s
      w:step(0.25)
      assert.is_true(e.x > 8000 and e.x <= 10 * 1024)
    end)
  end)

  -- The properties of spec/property_spec.lua under the exact integrator: seeded random
  -- input on the specs' rough terrain (slabs, fences, water, lava, ladders, ice, walls),
  -- frames of random length from 1/240 s to a 0.25 s hitch, both resolvers.
  describe("random walks on rough terrain", function()
    local Hw = require "helpers.world"
    local function walks(seed)
      local w = Hw.world()
      Hw.terrain(w, seed, 24)
      local rand = Hw.rng(seed + 1)
      local es = {}
      for i = 1, 16 do
        local r = bp.rules.mccpp { step_sink_fix = true,
                                   resolver = i % 2 == 0 and "axis" or "swept" }
        es[i] = w:spawn { x = 1 + rand() * 22, y = 5.5, z = 1 + rand() * 22, rules = r }
      end
      local trace, bad, wet = {}, {}, 0
      local frame = { 1 / 240, 1 / 144, 1 / 60, 1 / 30, 1 / 20, 0.25 }
      for tick = 1, 600 do
        Hw.random_input(es, rand)
        w:step(frame[rand(#frame)])
        for i, e in ipairs(es) do
          local x, y, z = e:position()
          if not (x == x and y == y and z == z and math.abs(x) < 1e6 and math.abs(y) < 1e6
                  and math.abs(z) < 1e6) then
            bad[#bad + 1] = ("tick %d entity %d not finite"):format(tick, i)
          end
          local box = e:box()
          for _, b in ipairs(w:boxes_in(box)) do
            if b:overlaps(box) then
              bad[#bad + 1] = ("tick %d entity %d: %s overlaps %s"):format(tick, i, tostring(box),
                tostring(b))
            end
          end
          if e.in_water or e.in_lava then wet = wet + 1 end
          trace[#trace + 1] = Hw.hex(x) .. Hw.hex(y) .. Hw.hex(z) .. Hw.hex(e.vy)
        end
      end
      return table.concat(trace, ";"), bad, wet
    end

    it("never leave an entity box overlapping a block box, and are deterministic", function()
      local t1, bad, wet = walks(4321)
      assert.same({}, { C.unpack_table(bad, 1, math.min(#bad, 5)) })
      assert.is_true(wet > 0) -- the liquids were visited
      local t2 = walks(4321)
      assert.is_true(t1 == t2)
    end)
  end)

  describe("hooks", function()
    it("the heading hook's result is the target velocity (b/s)", function()
      local w = floor_world()
      local e = spawn(w, bp.rules.mccpp { heading = function() return 0, 3 end })
      run(w, 2, 1 / 30)
      local z = e.z
      run(w, 1, 1 / 30)
      assert.is_near(3, e.z - z, 1e-9)
      assert.is_near(3, e.vz, 1e-9)
    end)

    it("refuses a heading hook whose target moves more than 1024 blocks in a substep", function()
      local w = floor_world()
      local e = spawn(w, bp.rules.mccpp { heading = function() return 0, 1e6 end })
      local ok, err = pcall(w.step, w)
      assert.is_false(ok)
      assert.are.equal("world:step: rules hook 'heading' of entity 1 would move it 50000 " ..
        "blocks in one tick (at most 1024 per axis)", err)
      assert.are.same({ 0.5, 64, 0.5 }, { e:position() })
    end)

    it("the jump hook runs once per piece while jumping (2 at dt = 0.1, nothing splitting a substep)", function()
      local w = floor_world()
      local calls = 0
      local e = spawn(w, bp.rules.mccpp { jump = function(self)
        calls = calls + 1
        self:native_jump()
      end })
      run(w, 0.5, 0.1)
      e.jumping = true
      w:step(0.1)
      assert.equal(2, calls)
      assert.is_true(e.vy > 0)
    end)
  end)
end)
