-- luacheck: std +busted
-- Fidelity of the beta173 preset against docs/beta173.md, checked against
-- an independent restatement of the game's tick in Lua: every Java float operation is
-- rounded with H.f32, every double one is done in the same order as the game, so the
-- comparisons below are exact (==) unless a tolerance is stated.
local H = require "helpers.world"
local F, f32 = H.F, H.f32

local HW = F.half_width

-- Java's (int) cast of a float: truncation toward zero (the values here are small).
local function java_int(x)
  return x >= 0 and math.floor(x) or math.ceil(x)
end

-- MathHelper.sin / cos of a yaw in degrees through the 65,536-entry float table
-- (section 1): yawRad = yaw * 3.1415927F / 180F, index = (int)(yawRad * 10430.378F).
local function table_trig(yaw)
  local rad = f32(f32(f32(yaw) * f32(3.1415927)) / f32(180))
  local function entry(phase)
    local i = java_int(f32(f32(rad * f32(10430.378)) + phase)) % 65536 -- & 0xFFFF
    return f32(math.sin(i * math.pi * 2 / 65536))
  end
  return entry(0), entry(16384)
end

--------------------------------------------------------------------------------
-- The game's land tick (sections 0-3) over a flat floor of unit cubes with top face
-- `top`, covering cells x0..x1, z0..z1, with nothing else near: Y clips against the
-- floor only, X and Z never clip; the sneak guard's probe looks for the floor.
--------------------------------------------------------------------------------
local Sim = {}
Sim.__index = Sim

local function sim(floor, x, y, z)
  local s = setmetatable({ floor = floor, v = { 0, 0, 0 }, on_ground = false, fall = 0,
                           ys = 0, forward = 0, strafe = 0, jumping = false,
                           sneaking = false, sin = 0, cos = 1 }, Sim)
  s.lo = { x - HW, y, z - HW }
  s.hi = { x + HW, y + F.height, z + HW }
  return s
end

function Sim:set_yaw(yaw)
  self.sin, self.cos = table_trig(yaw)
end

-- A box intersects the floor (strictly, as intersectsWith).
function Sim:touches_floor(lo, hi)
  local fl = self.floor
  return hi[1] > fl.x0 and lo[1] < fl.x1 + 1 and hi[2] > fl.top - 1 and lo[2] < fl.top
     and hi[3] > fl.z0 and lo[3] < fl.z1 + 1
end

-- The guard loop on one axis (section 3a): probe = box offset by d on `axis`, -1 on Y.
function Sim:guard(axis, d)
  while d ~= 0 do
    local lo, hi = { self.lo[1], self.lo[2] - 1, self.lo[3] }, { self.hi[1], self.hi[2] - 1, self.hi[3] }
    lo[axis], hi[axis] = lo[axis] + d, hi[axis] + d
    if self:touches_floor(lo, hi) then break end
    if d < 0.05 and d >= -0.05 then d = 0
    elseif d > 0 then d = d - 0.05
    else d = d + 0.05 end
  end
  return d
end

-- Entity.moveEntity for this world (section 3).
function Sim:move()
  self.ys = f32(self.ys * F.camera_decay)
  local d = { self.v[1], self.v[2], self.v[3] }
  if self.on_ground and self.sneaking then
    d[1] = self:guard(1, d[1])
    d[3] = self:guard(3, d[3])
  end
  local o = { d[1], d[2], d[3] }
  local fl = self.floor
  local over = self.hi[1] > fl.x0 and self.lo[1] < fl.x1 + 1 and
               self.hi[3] > fl.z0 and self.lo[3] < fl.z1 + 1
  if over and d[2] < 0 and self.lo[2] >= fl.top then
    local gap = fl.top - self.lo[2]
    if gap > d[2] then d[2] = gap end
  end
  for a = 1, 3 do
    self.lo[a], self.hi[a] = self.lo[a] + d[a], self.hi[a] + d[a]
  end
  self.on_ground = o[2] ~= d[2] and o[2] < 0
  if self.on_ground then
    self.fall = 0
  elseif d[2] < 0 then
    self.fall = f32(self.fall - d[2]) -- fallDistance is a float field
  end
  for a = 1, 3 do
    if o[a] ~= d[a] then self.v[a] = 0 end
  end
end

-- moveFlying (section 1), in float.
function Sim:heading(strafe, forward, k)
  local len = f32(math.sqrt(f32(f32(strafe * strafe) + f32(forward * forward))))
  if len < f32(0.01) then return end
  if len < 1 then len = 1 end
  local s = f32(k / len)
  local a, b = f32(strafe * s), f32(forward * s)
  self.v[1] = self.v[1] + f32(f32(a * self.cos) - f32(b * self.sin))
  self.v[3] = self.v[3] + f32(f32(b * self.cos) + f32(a * self.sin))
end

-- One tick on land (sections 0 and 2), stone under the entity.
function Sim:tick()
  local strafe, forward = f32(self.strafe), f32(self.forward)
  if self.sneaking then
    strafe, forward = f32(strafe * 0.3), f32(forward * 0.3)
    if self.ys < F.sneak_camera then self.ys = F.sneak_camera end
  end
  if self.jumping and self.on_ground then self.v[2] = F.jump end -- before the damping
  strafe, forward = f32(strafe * F.input), f32(forward * F.input)
  local f = self.on_ground and f32(F.slip * F.air) or F.air -- read before the move
  local k = f32(F.accel / f32(f32(f * f) * f))
  self:heading(strafe, forward, self.on_ground and f32(F.ground * k) or F.air_accel)
  self:move()
  self.v[2] = (self.v[2] - 0.08) * F.drag
  self.v[1], self.v[3] = self.v[1] * f, self.v[3] * f
end

-- The entity and the restated game agree exactly on position, velocity and flags.
local function same(s, e, where)
  local x, y, z = e:position()
  assert.equal((s.lo[1] + s.hi[1]) / 2, x, where)
  assert.equal(s.lo[2], y, where)
  assert.equal((s.lo[3] + s.hi[3]) / 2, z, where)
  assert.equal(s.v[1], e.vx, where)
  assert.equal(s.v[2], e.vy, where)
  assert.equal(s.v[3], e.vz, where)
  assert.equal(s.on_ground, e.on_ground, where)
  assert.equal(s.fall, e.fall_distance, where)
  assert.equal(s.ys, e.y_size, where)
end

-- A stone floor of cells x0..x1, z0..z1 at y = top - 1, in a world and in a Sim.
local function floor_world(x0, x1, z0, z1, top)
  local w = H.world()
  w:fill(x0, top - 1, z0, x1, top - 1, z1, "stone")
  return w, { x0 = x0, x1 = x1, z0 = z0, z1 = z1, top = top }
end

-- Run n ticks of both, comparing after each; `each(i)` may change the inputs first.
local function run(w, e, s, n, label, each)
  for i = 1, n do
    if each then each(i) end
    w:step()
    s:tick()
    same(s, e, label .. " tick " .. i)
  end
end

describe("beta173 fidelity", function()
  it("walks from rest on stone: 20 ticks equal the float-restated game", function()
    local w, fl = floor_world(-64, 64, -64, 64, 64)
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    local s = sim(fl, 0.5, 64, 0.5)
    run(w, e, s, 2, "landing")
    assert.is_true(e.on_ground)
    e.forward, s.forward = 1, 1
    run(w, e, s, 20, "walk")
    assert.equal(0, e.vx)
    -- near the terminal displacement 0.0098 / (1 - 0.546) = 0.21586, times f
    assert.is_near(0.21586 * f32(F.slip * F.air), e.vz, 1e-4)
  end)

  it("walks at 4.317 m/s and sneaks at 1.295 m/s (terminal, 20 ticks a second)", function()
    for _, case in ipairs{ { false, 4.3171 }, { true, 1.2952 } } do
      local w, fl = floor_world(-64, 64, -8, 200, 64)
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      local s = sim(fl, 0.5, 64, 0.5)
      run(w, e, s, 2, "landing")
      e.forward, s.forward, e.sneaking, s.sneaking = 1, 1, case[1], case[1]
      run(w, e, s, 100, case[1] and "sneak" or "walk")
      local z = e.z
      w:step()
      assert.is_near(case[2], (e.z - z) * 20, 1e-4)
      if case[1] then
        assert.equal(f32(F.sneak_camera * F.camera_decay), e.y_size) -- 0.080000005662441254
        assert.equal(0.080000005662441254, e.y_size)
      end
    end
  end)

  it("jumps while walking: ground values on the jump tick, air values on landing", function()
    local w, fl = floor_world(-64, 64, -8, 200, 64)
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    local s = sim(fl, 0.5, 64, 0.5)
    run(w, e, s, 2, "landing")
    e.forward, s.forward = 1, 1
    run(w, e, s, 40, "walk")
    local f_ground = f32(F.slip * F.air)
    local vz = e.vz
    e.jumping, s.jumping = true, true
    local z0 = e.z
    run(w, e, s, 1, "jump")
    e.jumping, s.jumping = false, false
    -- the jump tick accelerated and decayed with the ground's factors
    local a_ground = f32(f32(F.input) * f32(F.ground * f32(F.accel / f32(f32(f_ground * f_ground) * f_ground))))
    assert.equal((vz + a_ground) * f_ground, e.vz)
    assert.equal((F.jump - 0.08) * F.drag, e.vy)
    local ticks = 1
    while not e.on_ground do
      vz = e.vz
      run(w, e, s, 1, "air " .. ticks)
      ticks = ticks + 1
      assert.is_true(ticks <= 12)
    end
    -- the landing tick began in the air: air acceleration and 0.91F
    assert.equal((vz + f32(F.input * F.air_accel)) * F.air, e.vz)
    assert.equal(12, ticks)
    assert.equal(64, e.y)
    -- the restated game's jump length at walking speed, take-off to touch-down
    assert.equal((s.lo[3] + s.hi[3]) / 2 - z0, e.z - z0)
    assert.is_near(2.0352338, e.z - z0, 1e-7)
  end)

  it("counts the fall distance in float through a 3-block fall", function()
    local w, fl = floor_world(-8, 8, -8, 8, 64)
    local e = w:spawn{ x = 0.5, y = 67, z = 0.5 }
    local s = sim(fl, 0.5, 67, 0.5)
    local before
    for i = 1, 40 do
      before = e.fall_distance
      w:step()
      s:tick()
      same(s, e, "fall tick " .. i)
      if e.on_ground then break end
    end
    assert.is_true(e.on_ground)
    assert.equal(64, e.y)
    assert.equal(0, e.fall_distance)
    -- the value fall() received: float sum of the drops before the landing move,
    -- which e.landing_fall reports after the landing step, and 0 after the next one
    assert.is_true(before > 2.5 and before < 3)
    assert.equal(f32(before), before)
    assert.equal(before, e.landing_fall)
    w:step()
    assert.equal(0, e.landing_fall)
  end)

  it("reports no landing for a fall into water (the water test resets it first)", function()
    local w = floor_world(-8, 8, -8, 8, 64)
    w:fill(-4, 64, -4, 4, 66, 4, "water")
    local e = w:spawn{ x = 0.5, y = 80, z = 0.5 }
    local most = 0
    for _ = 1, 200 do
      w:step()
      most = math.max(most, e.landing_fall)
      if e.on_ground then break end
    end
    assert.is_true(e.on_ground)
    assert.equal(0, most)
  end)

  it("stops a sneaking player at a ledge at yaw 90 at the game's exact x", function()
    local w, fl = floor_world(0, 8, -8, 8, 64) -- the edge is x = 0, a 64-block drop
    local e = w:spawn{ x = 2.5, y = 64, z = 0.5, yaw = 90 }
    local s = sim(fl, 2.5, 64, 0.5)
    s:set_yaw(90)
    assert.equal(1, s.sin)
    assert.equal(f32(math.sin(math.pi)), s.cos) -- 1.2246469e-16, not 0
    run(w, e, s, 2, "landing")
    e.sneaking, s.sneaking, e.forward, s.forward = true, true, 1, 1
    run(w, e, s, 80, "sneak")
    local lo, _, _, hi = e:box():unpack()
    assert.is_true(hi > 0 and hi < 0.05, "box max x " .. hi)
    assert.equal(64, e.y)
    assert.is_true(e.on_ground)
    assert.is_false(e.collided_horizontally)
    assert.is_true(e.vx < -0.035) -- the guard keeps the velocity (0.0648 x 0.546F)
    assert.equal((lo + hi) / 2, e.x)
    assert.is_near(-0.2862167, e.x, 1e-7) -- the centre, 0.286 past the edge
  end)

  describe("liquids", function()
    -- (v + b) * drag per tick with b = 0.98F x 0.02F (input below 1: not normalised)
    local b = f32(F.input * F.air_accel)
    for _, case in ipairs{ { "water", F.water_drag, 0.098 }, { "lava", 0.5, 0.0392 } } do
      it("swims horizontally in " .. case[1] .. " toward " .. case[3] .. " b/t", function()
        local w = H.world()
        w:fill(-4, 0, -4, 4, 40, 80, case[1])
        local e = w:spawn{ x = 0.5, y = 30, z = 0.5 }
        e.forward = 1
        local v, z, moved = 0, e.z, 0
        for i = 1, 100 do
          w:step()
          v = v + b
          moved = e.z - z
          assert.is_near(v, moved, 1e-12, "tick " .. i)
          z = e.z
          v = v * case[2]
          assert.equal(v, e.vz, "tick " .. i)
        end
        assert.is_near(case[3], moved, 1e-7)
      end)
    end

    it("tests water with the box contracted in two roundings (0.4F, then 0.001)", function()
      -- minY + 0.4F + 0.001 is 1.9999999999999998 in the game (cell 1), while
      -- minY + 0.401 would be 2.0 (cell 2): water in cell 1 only.
      local y = 1.5989999940395354
      assert.equal(1.9999999999999998, (y + 0.4000000059604645) + 0.001)
      local w = H.world()
      w:set_block(0, 1, 0, "water")
      local e = w:spawn{ x = 0.5, y = y, z = 0.5 }
      w:step()
      assert.is_true(e.in_water)
      assert.equal(-0.02, e.vy) -- water branch: 0 x 0.8F - 0.02
    end)

    it("breach probe follows posY, which carries ySize (first sneaking tick)", function()
      -- water cells y 60..63 (surface 64), a wall at x >= 1 level with the surface
      local function setup(sneak)
        local w = H.world()
        w:fill(-4, 60, -4, 0, 63, 4, "water")
        w:fill(1, 60, -4, 4, 63, 4, "stone")
        local e = w:spawn{ x = 1 - HW, y = 63.38, z = 0.5, yaw = -90 }
        e.forward, e.sneaking = 1, sneak
        w:step()
        assert.is_true(e.in_water)
        assert.is_true(e.collided_horizontally)
        return e
      end
      -- posY before = minY - 0 (spawned), after = minY - 0.08F: the probe rises
      -- 0 x 0.8F - 0.02 + 0.6F + 0.08F = 0.66, to 64.04: clear of water -> 0.3F
      assert.equal(f32(0.3), setup(true).vy)
      -- not sneaking: 0.58, to 63.96, still in water: no breach
      assert.equal(-0.02, setup(false).vy)
    end)
  end)

  it("steps onto a slab, then waits out the ySize cooldown before the next rise", function()
    local w = H.world()
    -- a stair in cell z = 1: a slab, and above it a half-height block from z = 1.25
    w:define_block{ name = "stair", boxes = { { 0, 0, 0, 1, 0.5, 1 }, { 0, 0.5, 0.25, 1, 1, 1 } } }
    w:fill(-4, 63, -4, 4, 63, 4, "stone")
    w:fill(-4, 64, 1, 4, 64, 1, "stair")
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    w:step(); w:step()
    e.forward = 1
    -- displacement per walking tick: d1 = a, d(n+1) = d(n) x f + a
    local f = f32(F.slip * F.air)
    local a = f32(f32(F.input) * f32(F.ground * f32(F.accel / f32(f32(f * f) * f))))
    local d, hi = { a }, 0.5 + HW
    for n = 2, 4 do d[n] = d[n - 1] * f + a end
    assert.is_true(hi + d[1] < 1 and hi + d[1] + d[2] > 1) -- walk tick 2 meets the slab
    w:step()
    w:step()
    local ys = f32(0 + (0.5 + 0.01)) -- frac(64.5) + 0.01 after the step
    assert.equal(64.5, e.y)
    assert.equal(ys, e.y_size)
    assert.is_false(e.collided_horizontally)
    assert.is_true(e.on_ground)
    -- walk tick 3: no obstacle
    w:step()
    ys = f32(ys * F.camera_decay) -- 0.204
    assert.equal(ys, e.y_size)
    assert.equal(64.5, e.y)
    -- walk tick 4 reaches the riser at z = 1.25 with ySize 0.0816 >= 0.05F: no step
    w:step()
    ys = f32(ys * F.camera_decay)
    assert.is_true(ys >= f32(0.05))
    assert.equal(ys, e.y_size)
    assert.equal(64.5, e.y)
    assert.is_true(e.collided_horizontally)
    assert.equal(0, e.vz)
    assert.equal(1.25, select(6, e:box():unpack()))
    -- walk tick 5: ySize 0.03264 < 0.05F: it steps to 65 (frac 0: ySize not raised)
    w:step()
    ys = f32(ys * F.camera_decay)
    assert.is_true(ys < f32(0.05))
    assert.equal(65, e.y)
    assert.equal(ys, e.y_size)
    assert.is_false(e.collided_horizontally)
  end)
end)
