-- The MC-CPP rules (per second): docs/mccpp.md.
local bp = require "blockphys"

local G, H, WALK, BACK = 32, 1.25, 4.317, 0.001

local raises_here = require("helpers.world").raises_here
local f32 = require("helpers.world").f32

-- A stone floor with its top at y = 64.
local function flat(x1, x2)
  local w = bp.World()
  w:define_block { name = "stone" }
  w:define_block { name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:fill(x1 or -8, 63, -8, x2 or 8, 63, 8, "stone")
  return w
end

local function spawn(w, x, y, z, rules)
  return w:spawn { x = x, y = y, z = z, width = 0.6, height = 1.8,
                   rules = rules or bp.rules.mccpp { integrator = "mccpp" } }
end

-- One step (dt 0.05) of an entity standing on the floor (a downward probe sets
-- on_ground and zeroes vy), after `setup(e)` sets its input. The acceleration is
-- scaled by the grounded friction (20) x dt = 1; the move has no Y part, so it hits
-- nothing and the entity ends in the air (docs/mccpp.md: the grounded flicker at dt = 0.05),
-- and the decay uses drag_fall: x (1 - 1.8 x 0.05) = 0.91 on X and Z.
local function ground_tick(rules, setup)
  local w = flat()
  local e = spawn(w, 0.5, 64, 0.5, rules)
  e:move_swept(0, -0.1, 0)
  assert.is_true(e.on_ground)
  setup(e)
  w:step()
  assert.is_false(e.on_ground)
  return e
end

-- Displacement of one step of dt along x.
local function step_dx(w, e, dt)
  local x = e.x
  w:step(dt)
  return e.x - x
end

describe("MC-CPP rules", function()
  describe("preset", function()
    it("has every constant of the document as a named field", function()
      local r = bp.rules.mccpp()
      assert.are.same({ "mccpp", "swept", 32, 1.25, 4.317, 0.6, 0.001, 8, 3 },
        { r.model, r.resolver, r.gravity, r.jump_height, r.walk_speed, r.step_height,
          r.back_off, r.camera_rise, r.passes })
      assert.are.same({ 20, 20, 20 }, r.friction)
      assert.are.same({ 5, 5, 5 }, r.drag_fly)
      assert.are.same({ 1.8, 0, 1.8 }, r.drag_jump)
      assert.are.same({ 1.8, 0.4, 1.8 }, r.drag_fall)
    end)
  end)

  describe("jump", function()
    -- v = sqrt(2 h g) only for 2 h g > 0: with jump_height 0 and a negative gravity
    -- 2 h g is -0, whose square root is -0 (and fmax(0, -0) may be either zero).
    it("gives vy = +0 for a jump of height 0 under negative gravity", function()
      local w = flat()
      local e = spawn(w, 0.5, 64, 0.5)
      e:move_swept(0, -0.1, 0) -- grounded: a downward probe meets the floor
      assert.is_true(e.on_ground)
      e.rules.gravity, e.rules.jump_height = -1, 0
      e.vy = 1
      e:native_jump()
      assert.equal(math.huge, 1 / e.vy)
    end)

    -- Explicit Euler with the move before gravity: moves v0 - k g dt for k = 0..N
    -- while positive (no vertical drag while rising). With v0 / (g dt) = N + r the apex
    -- is h + (g dt^2 / 2)(N + 2r - r^2), so h <= apex - h0 <= h + v0 dt / 2 + g dt^2 / 8.
    for _, dt in ipairs { 0.001, 0.01, 1 / 60, 0.05 } do
      it(("reaches 1.25 within v0 dt / 2 + g dt^2 / 8 at dt = %.4g"):format(dt), function()
        local w = flat()
        local e = spawn(w, 0.5, 64, 0.5)
        for _ = 1, 20 do w:step(dt) end
        e.jumping = true
        local y0
        while not y0 do -- the jump waits for a grounded tick
          local y = e.y
          w:step(dt)
          if e.y > y then y0 = y end
        end
        e.jumping = false
        local top = e.y
        for _ = 1, math.ceil(1 / dt) do
          w:step(dt)
          top = math.max(top, e.y)
        end
        local v0 = math.sqrt(2 * H * G)
        local n = math.floor(v0 / (G * dt))
        local r = v0 / (G * dt) - n
        local err = top - y0 - H
        assert.is_near(G * dt * dt / 2 * (n + 2 * r - r * r), err, 1e-9)
        assert.is_true(err >= 0 and err <= v0 * dt / 2 + G * dt * dt / 8)
      end)
    end

    it("a negative gravity gives no jump (vy 0, not NaN), then pulls up: vy = 0.05", function()
      -- Pins the clamp in sqrt(max(0, 2 h g)): with g = -1 the root of -2.5 would be NaN.
      -- Grounded, jumping: vy = 0; the move is zero; gravity: vy -= -1 x 0.05; rising,
      -- so drag_jump, whose Y is 0: vy stays 0.05.
      local w = flat()
      local e = spawn(w, 0.5, 64, 0.5, bp.rules.mccpp { gravity = -1, integrator = "mccpp" })
      e:move_swept(0, -0.1, 0)
      assert.is_true(e.on_ground)
      e.jumping = true
      w:step()
      assert.is_near(0.05, e.vy, 1e-15)
      assert.are.equal(64, e.y)
    end)

    it("jumps only when grounded, and never with gravity <= 0", function()
      local w = flat()
      local e = spawn(w, 0.5, 70, 0.5)
      e.jumping = true
      w:step()
      assert.is_true(e.vy < 0)
      local z = spawn(w, 3.5, 64, 0.5, bp.rules.mccpp { gravity = 0 })
      z:move_swept(0, -0.1, 0)
      z.jumping = true
      w:step()
      assert.are.equal(0, z.vy)
    end)

    it("runs the jump hook instead of the native jump", function()
      local w = flat()
      local calls = 0
      local e = spawn(w, 0.5, 70, 0.5, bp.rules.mccpp { jump = function(self)
        calls = calls + 1
        self.vy = 3
      end })
      e.jumping = true
      w:step()
      assert.are.equal(1, calls)
      -- after the move: gravity then rising drag (y 0): 3 - 32 * 0.05
      assert.is_near(3 - 1.6, e.vy, 1e-12)
    end)
  end)

  describe("falling", function()
    it("rests at the per-axis resolver's height plus the back-off of the landing", function()
      local w = flat()
      local s = spawn(w, 0.5, 70, 0.5)
      local a = spawn(w, 3.5, 70, 0.5, bp.rules.mccpp { resolver = "axis" })
      local vland, landings = nil, 0
      for i = 1, 60 do
        local v = s.vy
        w:step()
        if s.on_ground then
          vland = v
          if i > 50 then landings = landings + 1 end
        end
      end
      assert.are.equal(64, a.y)
      assert.is_true(a.on_ground and s.on_ground)
      -- At rest with dt = 0.05 the entity lands every other tick (the grounded flicker,
      -- docs/mccpp.md: its velocity decays to 0, the next move is zero and hits nothing), and
      -- each landing pass stops back_off of that tick's displacement above the floor.
      assert.are.equal(5, landings)
      assert.is_near(BACK * math.abs(vland) * 0.05, s.y - 64, 1e-12)
      assert.is_true(s.y - 64 < 1e-3)
      assert.are.equal(0, s.fall_distance)
    end)

    it("has no gravity while flying and drags with drag_fly", function()
      local w = flat()
      local e = spawn(w, 0.5, 70, 0.5)
      e.flying = true
      e.vx = 10
      w:step()
      assert.are.same({ 70, 0 }, { e.y, e.vy })
      assert.is_near(10 * (1 - 5 * 0.05), e.vx, 1e-12)
      for _ = 1, 20 do w:step() end
      assert.are.equal(70, e.y)
    end)

    it("the default dt is 0.05", function()
      local w = flat()
      local a, b = spawn(w, 0.5, 70, 0.5), spawn(w, 3.5, 70, 0.5)
      a.vx, b.vx = 1, 1
      w:step()
      local w2 = flat()
      local c = spawn(w2, 0.5, 70, 0.5)
      c.vx = 1
      w2:step(0.05)
      assert.are.same({ a:position() }, { c:position() })
      assert.are.same({ a:velocity() }, { c:velocity() })
      -- gravity then falling drag: -32 * 0.05 * (1 - 0.4 * 0.05)
      assert.is_near(-1.568, a.vy, 1e-12)
    end)
  end)

  describe("walking", function()
    -- Terminal speed: v = (v + a f dt)(1 - f dt) after the decay, so the velocity
    -- used by the move, v + a f dt, is exactly a = walk_speed.
    for _, dt in ipairs { 0.05, 1 / 60, 0.01 } do
      it(("terminal speed is walk_speed at dt = %.4g"):format(dt), function()
        local w = flat(-8, 100)
        local e = spawn(w, 0.5, 64, 0.5)
        e.forward, e.yaw = 1, -90
        for _ = 1, 200 do w:step(dt) end
        for _ = 1, 5 do
          assert.is_near(WALK, step_dx(w, e, dt) / dt, 1e-9)
        end
      end)
    end

    it("follows yaw and strafe like Beta's moveFlying (yaw 0 faces +Z, strafe > 0 is left = +X)", function()
      local function heading(forward, strafe, yaw)
        local w = flat()
        local e = spawn(w, 0.5, 70, 0.5)
        e.flying, e.forward, e.strafe, e.yaw = true, forward, strafe, yaw
        w:step()
        return e.vx, e.vz
      end
      -- one tick of acceleration a * drag_fly * dt = 4.317 * 5 * 0.05, then decay
      local v = WALK * 5 * 0.05 * (1 - 5 * 0.05)
      local vx, vz = heading(1, 0, 0)
      assert.are.same({ 0, v }, { vx, vz })
      vx, vz = heading(0, 1, 0)
      assert.are.same({ v, 0 }, { vx, vz })
      vx, vz = heading(1, 0, 90)
      assert.is_near(-v, vx, 1e-12)
      assert.is_near(0, vz, 1e-12)
      -- diagonal input is normalised: same speed
      vx, vz = heading(1, 1, 0)
      assert.is_near(v, math.sqrt(vx * vx + vz * vz), 1e-12)
    end)

    it("input shorter than 1 is not normalised: forward = 0.5 gives half the acceleration", function()
      -- Pins scale = walk_speed / max(1, |input|): |(0, 0.5)| = 0.5 keeps the scale
      -- 4.317, so vz = 0.5 x 4.317 x 20 x 0.05 x 0.91 (see ground_tick) = 1.964235.
      local e = ground_tick(nil, function(e) e.forward = 0.5 end)
      assert.is_near(0.5 * WALK * 20 * 0.05 * (1 - 1.8 * 0.05), e.vz, 1e-12)
      assert.are.equal(0, e.vx)
      -- the move used the velocity before the decay: 2.1585 b/s x 0.05 s
      assert.is_near(0.5 * WALK * 0.05, e.z - 0.5, 1e-12)
    end)

    it("the friction vector scales each axis: friction = {20, 20, 5} on Z", function()
      -- Pins that Z's acceleration uses friction[3] (not [1] or [2]): grounded,
      -- vz = 4.317 x 5 x 0.05 x 0.91 (air decay, see ground_tick) = 0.9821175.
      local e = ground_tick(bp.rules.mccpp { friction = { 20, 20, 5 }, integrator = "mccpp" },
        function(e) e.forward = 1 end)
      assert.is_near(WALK * 5 * 0.05 * (1 - 1.8 * 0.05), e.vz, 1e-12)
      assert.are.equal(0, e.vx)
    end)

    it("strafe at yaw 90 accelerates toward +Z (strafe > 0 is left of the facing -X)", function()
      -- Pins the sign of strafe's sine term: az = forward cos + strafe sin(yaw) = +4.317,
      -- ax = strafe cos(90) ~ 2.6e-16 x 4.317. vz = 4.317 x 0.91 = 3.92847 (ground_tick).
      local e = ground_tick(nil, function(e) e.strafe, e.yaw = 1, 90 end)
      assert.is_near(WALK * 20 * 0.05 * (1 - 1.8 * 0.05), e.vz, 1e-12)
      assert.is_near(0, e.vx, 1e-12)
    end)

    it("the heading hook gets k = walk_speed and returns an acceleration in b/s^2", function()
      local w = flat(-8, 60)
      local seen
      local e = spawn(w, 0.5, 64, 0.5, bp.rules.mccpp { walk_speed = 6, heading = function(_, s, f, k)
        seen = { s, f, k }
        return k, 0
      end })
      e.forward = 0.5
      for _ = 1, 20 do w:step() end
      assert.are.same({ 0, 0.5, 6 }, seen)
      assert.is_near(6, step_dx(w, e, 0.05) / 0.05, 1e-9)
    end)

    it("steps onto a slab: camera offset -0.6 rises back at camera_rise", function()
      local w = flat(-8, 20)
      w:fill(3, 64, -1, 20, 64, 1, "slab")
      local e = spawn(w, 0.5, 64, 0.5)
      e.forward, e.yaw = 1, -90
      local offsets = {}
      for _ = 1, 20 do
        w:step()
        if e.step_offset < 0 or #offsets > 0 then offsets[#offsets + 1] = e.step_offset end
        if #offsets == 3 then break end
      end
      assert.is_near(-0.6, offsets[1], 1e-12)
      assert.is_near(-0.6 + 8 * 0.05, offsets[2], 1e-12)
      assert.are.equal(0, offsets[3])
      for _ = 1, 10 do w:step() end
      assert.is_true(e.y > 64.5 and e.y < 64.5 + 1e-3) -- on the slab
    end)
  end)

  describe("heading hook limit", function()
    -- A heading hook's acceleration a adds a x f x dt to the velocity, so a x f x dt^2
    -- to the step's move; that is held to 1024 blocks per axis (docs/api.md "Stepping").
    -- Grounded (f = friction = 20) at dt = 0.05: a x 20 x 0.0025 = a / 20 blocks.
    local function hooked(ax, az)
      local w = flat()
      local e = spawn(w, 0.5, 64, 0.5, bp.rules.mccpp { integrator = "mccpp", heading = function() return ax, az end })
      e:move_swept(0, -0.1, 0)
      local ok, err = pcall(w.step, w)
      return e, ok, err
    end

    it("accepts (10000, 0): 500 blocks on X", function()
      local e, ok, err = hooked(10000, 0)
      assert.is_true(ok, err)
      assert.is_near(500, e.x - 0.5, 1e-9)
      assert.is_near(10000 * (1 - 1.8 * 0.05), e.vx, 1e-9) -- decay in the air
    end)

    it("accepts exactly 1024 blocks on either axis and refuses a little more", function()
      for axis = 1, 2 do
        local function acc(a) if axis == 1 then return a, 0 end return 0, a end
        local e, ok, err = hooked(acc(20480)) -- 20480 / 20 = 1024
        assert.is_true(ok, err)
        assert.is_near(1024, axis == 1 and e.x - 0.5 or e.z - 0.5, 1e-9)
        e, ok, err = hooked(acc(20481)) -- 1024.05
        assert.is_false(ok)
        assert.are.equal("world:step: rules hook 'heading' of entity 1 would move it 1024.05 " ..
          "blocks in one tick (at most 1024 per axis)", err)
        assert.are.same({ 0.5, 64, 0.5, 0, 0, 0 }, { e.x, e.y, e.z, e:velocity() })
      end
    end)

    it("refuses (0, 1e6): 50000 blocks on Z, and the step is undone", function()
      local e, ok, err = hooked(0, 1e6)
      assert.is_false(ok)
      assert.are.equal("world:step: rules hook 'heading' of entity 1 would move it 50000 " ..
        "blocks in one tick (at most 1024 per axis)", err)
      assert.are.same({ 0.5, 64, 0.5, 0, 0, 0 }, { e.x, e.y, e.z, e:velocity() })
      assert.is_true(e.on_ground)
    end)

    it("under Beta rules the hook's result is the velocity change itself: (0, 2000) fails", function()
      local w = flat()
      local e = w:spawn { x = 0.5, y = 64, z = 0.5,
                          rules = bp.rules.beta173 { heading = function() return 0, 2000 end } }
      local ok, err = pcall(w.step, w)
      assert.is_false(ok)
      assert.are.equal("world:step: rules hook 'heading' of entity 1 would move it 2000 " ..
        "blocks in one tick (at most 1024 per axis)", err)
      assert.are.same({ 0.5, 64, 0.5, 0, 0, 0 }, { e.x, e.y, e.z, e:velocity() })
    end)
  end)

  describe("decay", function()
    it("clamps so that it never overshoots zero", function()
      local w = flat()
      local e = spawn(w, 0.5, 64, 0.5)
      -- falling onto the floor during the move: grounded, friction 20
      e.vx, e.vy = 10, -1
      w:step(0.1) -- decay 10 * 20 * 0.1 = 20 > 10: zero, not -10
      assert.are.equal(0, e.vx)
      assert.is_near(1, e.x - 0.5, 1e-12)
      local a = spawn(w, 3.5, 70, 0.5) -- in the air: drag_fall 1.8
      a.vx = 10
      w:step(0.1)
      assert.is_near(10 * (1 - 1.8 * 0.1), a.vx, 1e-12)
      w:step(1) -- 8.2 * 1.8 * 1 > 8.2: zero
      assert.are.equal(0, a.vx)
    end)
  end)

  describe("interpolation", function()
    it("e:lerp(alpha) goes from the previous to the current position", function()
      local w = flat()
      local e = spawn(w, 0.5, 70, 0.5)
      e.vx, e.vy = 2, -4
      w:step()
      local x0, y0 = 0.5, 70
      local x1, y1 = e:position()
      assert.are.same({ x0, y0, 0.5 }, { e:lerp(0) })
      assert.are.same({ x1, y1, 0.5 }, { e:lerp(1) })
      local lx, ly = e:lerp(0.25)
      assert.is_near(x0 + (x1 - x0) * 0.25, lx, 1e-12)
      assert.is_near(y0 + (y1 - y0) * 0.25, ly, 1e-12)
      w:step()
      assert.are.same({ x1, y1, 0.5 }, { e:lerp(0) })
    end)
  end)

  describe("world:step(dt) errors", function()
    local w = bp.World()
    it("rejects dt <= 0", function()
      assert.has_error(function() w:step(0) end, "bad argument #1 to 'step' (dt must be positive)")
      assert.has_error(function() w:step(-0.05) end, "bad argument #1 to 'step' (dt must be positive)")
    end)
    it("rejects dt outside [limits.min_dt, limits.max_dt] = [1e-06, 1] seconds", function()
      -- below it a push / dt overflows; above it a dt in milliseconds (world:step(50))
      -- would move an entity up to the limit in one call: both are errors
      local msg = "bad argument #1 to 'step' (dt must be in [1e-06, 1] seconds)"
      assert.same({ 1e-06, 1 }, { bp.limits.min_dt, bp.limits.max_dt })
      local e = w:spawn{ x = 0.5, y = 5, z = 0.5, rules = bp.rules.mccpp{} }
      for _, dt in ipairs{ 1e308, 50, 1.5, 9.9e-7, 5e-324 } do
        assert.has_error(function() w:step(dt) end, msg)
      end
      assert.equal(5, e.y) -- nothing moved
      w:step(1)
      w:step(1e-6)
      local vx, vy, vz = e:velocity()
      assert.is_true(vx == vx and vy == vy and vz == vz and math.abs(vy) < math.huge)
      w:remove(e)
    end)
    it("rejects non-finite dt", function()
      assert.has_error(function() w:step(0 / 0) end, "bad argument #1 to 'step' (number must be finite)")
      assert.has_error(function() w:step(math.huge) end, "bad argument #1 to 'step' (number must be finite)")
      assert.has_error(function() w:step(-math.huge) end, "bad argument #1 to 'step' (number must be finite)")
    end)
    it("rejects a non-number", function()
      assert.has_error(function() w:step("fast") end, "bad argument #1 to 'step' (number expected, got string)")
      assert.has_error(function() w:step({}) end, "bad argument #1 to 'step' (number expected, got table)")
    end)
    it("rejects a step that would move an entity more than 1024 blocks", function()
      local w2 = bp.World()
      local e = spawn(w2, 0, 0, 0)
      e.vx = 30000
      assert.has_error(function() w2:step() end,
        "world:step: entity 1 would move 1500 blocks in one step (at most 1024 per axis)")
      assert.are.same({ 0, 0, 0 }, { e:position() })
    end)
    it("fails a step whose hook sets a velocity beyond 1024 blocks in dt (undone)", function()
      local w2 = bp.World()
      local e = spawn(w2, 0, 0, 0, bp.rules.mccpp{ integrator = "mccpp", jump = function(self) self.vx = 30000 end })
      e.jumping = true
      local ok, err = pcall(w2.step, w2)
      assert.is_false(ok)
      assert.truthy(err:find("entity field 'vx' would move the entity 1500 blocks in one " ..
        "tick (at most 1024 per axis inside world:step)", 1, true), err)
      assert.are.same({ 0, 0, 0 }, { e:position() })
      assert.equal(0, e.vx)
      w2:step(0.01) -- 300 blocks in dt = 0.01: within the limit
      assert.near(300, e.x, 1e-6)
    end)
    -- What Lua code sets is checked where it is set: the rules' own acceleration over a
    -- large dt is clamped to the limit, with or without hooks and filters, and so is a
    -- legal velocity that a hook wrote plus that acceleration.
    it("clamps a large dt's walking to 1024 blocks, with or without hooks", function()
      -- walk_speed 1e5 b/s^2: the documents' update adds 1e5 x 20 x 1 b/s in a 1 s step
      for _, variant in ipairs{ "plain", "filter", "hook" } do
        local w2 = bp.World()
        local e = spawn(w2, 0, 0, 0, bp.rules.mccpp{ integrator = "mccpp", walk_speed = 1e5,
          jump = variant == "hook" and function(self) self.vy = 0 end or nil })
        e.forward = 1
        e.jumping = variant == "hook"
        if variant == "filter" then
          w2:spawn{ x = 1e6, y = 0, z = 0, filter = function() return true end }
        end
        w2:step(1)
        assert.are.same({ 0, 0, 1024 }, { e:position() }, variant)
      end
    end)
  end)

  describe("resolver choice", function()
    it("a Beta entity with resolver = \"swept\" jumps like the per-axis one, up to the floor gap", function()
      local w = flat()
      local a = w:spawn { x = 0.5, y = 64, z = 0.5 }
      local s = w:spawn { x = 3.5, y = 64, z = 0.5, rules = bp.rules.beta173 { resolver = "swept" } }
      w:step(); w:step()
      a.jumping, s.jumping = true, true
      local ta, ts = 0, 0
      for _ = 1, 12 do
        w:step()
        ta, ts = math.max(ta, a.y), math.max(ts, s.y)
      end
      assert.is_near(65.2522033402537, ta, 1e-9) -- smoke_spec's Beta apex
      -- the swept entity stands back_off x one tick's fall (0.0784) above the floor
      assert.is_true(ts - ta >= 0 and ts - ta <= BACK * 0.0784 + 1e-12)
    end)

    it("a Beta entity with resolver = \"swept\" walks as far as the per-axis one", function()
      local w = flat(-8, 60)
      local a = w:spawn { x = 0.5, y = 64, z = 0.5 }
      local s = w:spawn { x = 0.5, y = 64, z = 3.5, rules = bp.rules.beta173 { resolver = "swept" } }
      for _, e in ipairs { a, s } do e.forward, e.yaw = 1, -90 end
      for _ = 1, 60 do w:step() end
      assert.is_near(a.x, s.x, 1e-9)
      assert.is_true(s.on_ground)
    end)

    it("an MC-CPP entity with resolver = \"axis\" rests exactly on the floor and steps like Beta", function()
      local w = flat(-8, 20)
      w:fill(3, 64, -1, 20, 64, 1, "slab")
      local e = spawn(w, 0.5, 66, 0.5, bp.rules.mccpp { resolver = "axis" })
      for _ = 1, 20 do w:step() end
      assert.are.equal(64, e.y)
      e.forward, e.yaw = 1, -90
      for _ = 1, 20 do w:step() end
      assert.are.equal(64.5, e.y) -- up and back down by step_height: exactly on the slab
      assert.are.equal(0, e.step_offset)
      assert.is_near(WALK, step_dx(w, e, 0.05) / 0.05, 1e-9)
    end)
  end)

  describe("liquids", function()
    it("MC-CPP has none: entities fall through water and in_water stays false", function()
      local w = flat()
      w:define_block { name = "water", boxes = {}, liquid = "water" }
      w:fill(-2, 64, -2, 2, 66, 2, "water")
      local e = spawn(w, 0.5, 66, 0.5)
      for _ = 1, 20 do w:step() end
      assert.is_false(e.in_water)
      assert.is_true(e.on_ground)
      assert.is_true(e.y < 64.001)
    end)

    it("an entity switched from Beta to MC-CPP rules in water or lava leaves it on its first step", function()
      -- Pins that the MC-CPP tick clears in_water and in_lava (it has no liquids). The
      -- rules setter keeps the flags (only in_web is a Beta flag it clears); the first
      -- MC-CPP step clears them.
      local w = flat()
      w:define_block { name = "water", boxes = {}, liquid = "water" }
      w:define_block { name = "lava", boxes = {}, liquid = "lava" }
      w:fill(-2, 64, -2, 2, 66, 2, "water")
      w:fill(4, 64, -2, 6, 66, 2, "lava")
      local e = w:spawn { x = 0.5, y = 64.5, z = 0.5 }
      local l = w:spawn { x = 5.5, y = 64.5, z = 0.5 }
      w:step()
      assert.are.same({ true, false, false, true }, { e.in_water, e.in_lava, l.in_water, l.in_lava })
      e.rules, l.rules = bp.rules.mccpp { integrator = "mccpp" }, bp.rules.mccpp { integrator = "mccpp" }
      assert.are.same({ true, true }, { e.in_water, l.in_lava })
      w:step()
      assert.are.same({ false, false, false, false }, { e.in_water, e.in_lava, l.in_water, l.in_lava })
    end)
  end)

  describe("push = \"beta173\"", function()
    it("an MC-CPP entity with the Beta push pushes its neighbour at the end of its tick", function()
      -- Pins that the MC-CPP tick runs the Beta velocity push when its rules ask for it.
      -- b (default push "separate", which only separates it from other "separate"
      -- entities) first, a (push "beta173") second, both flying and still (no gravity,
      -- nothing to decay). a's push after its move: d = (xa - xb) = -0.3, m =
      -- (float)sqrt(0.3), d / m x min(1, 1 / m) (= 1) x 0.05F; a gets +d, b gets -d.
      local w = bp.World()
      local b = spawn(w, 0.8, 70, 0.5)
      local a = spawn(w, 0.5, 70, 0.5, bp.rules.mccpp { push = "beta173" })
      a.flying, b.flying = true, true
      w:step()
      local d = (0.5 - 0.8) / f32(math.sqrt(0.3)) * f32(0.05)
      assert.is_near(d, a.vx, 1e-12)
      assert.is_near(-d, b.vx, 1e-12)
      assert.is_near(-0.0273861272561664, a.vx, 1e-12)
      assert.are.same({ 0, 0, 0, 0 }, { a.vy, a.vz, b.vy, b.vz })
      -- the push comes after the move: nobody moved this step
      assert.are.same({ 0.5, 0.8 }, { a.x, b.x })
    end)
  end)

  describe("preset errors", function()
    it("are reported at the caller's line", function()
      raises_here("bp.rules.mccpp: unknown rule 'foo' for model mccpp",
        function() bp.rules.mccpp{ foo = 1 } end)
      raises_here("bp.rules.mccpp: rule 'model' cannot change (make new rules with bp.rules.beta173)",
        function() bp.rules.mccpp{ model = "beta173" } end)
    end)

    it("name the preset and its argument for overrides that are not a table", function()
      raises_here("bp.rules.mccpp: bad argument #1 (table expected, got number)",
        function() bp.rules.mccpp(5) end)
      raises_here("bp.rules.mccpp: bad argument #1 (table expected, got boolean)",
        function() bp.rules.mccpp(false) end)
    end)
  end)
end)
