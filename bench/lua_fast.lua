--- The strongest pure-Lua baseline we could write for world:step on the bench scene:
-- the same Beta 1.7.3 rules and per-axis resolver as blockphys (docs/beta173.md
-- sections 2 and 3: heading with the float sine table, friction and acceleration in
-- Java float, clip Y then X then Z, step-up with the ySize cooldown and the sink
-- quirk, the settle of a clip at a face), giving the same positions and velocities
-- bit for bit, written for speed: blocks in 16^3 chunks of flat arrays (one table
-- lookup per chunk, not per block), entity state in flat arrays (one per field,
-- indexed by entity), no closures or tables made per tick, float rounding by
-- Veltkamp's split (three double operations, exact for the magnitudes here), and the
-- tick specialised to what the scene has: full cubes and box shapes of the default
-- slipperiness, no liquids, ladders, webs or sneaking (a world with those would need
-- their branches, which blockphys skips the same way when a world has none). It runs
-- unchanged under Lua 5.1 to 5.4 and LuaJIT. It is the bench's baseline; it is not
-- part of the library.
local floor, sin = math.floor, math.sin

local M = {}

-- Round a double to the nearest binary32 (Veltkamp: 2^29 + 1 splits off 24 bits).
local SPLIT = 536870913
local function f32(x)
  local t = x * SPLIT
  return t - (t - x)
end

-- The game's float constants, widened to double.
local INPUT_DAMPING = 0.9800000190734863
local JUMP = 0.41999998688697815
local GROUND_ACCEL = 0.10000000149011612
local ACCEL_FACTOR = 0.16277135908603668
local AIR_ACCEL = 0.019999999552965164
local AIR_FRICTION = 0.9100000262260437
local GRAVITY = 0.08
local VERTICAL_DRAG = 0.9800000190734863
local STEP = 0.5
local CAMERA_DECAY = 0.4000000059604645
local STEP_COOLDOWN = 0.05000000074505806
local HALF_WIDTH, HEIGHT = 0.30000001192092896, 1.7999999523162842
local PI_F, DEG_F, TABLE_F = 3.1415927410125732, 180, 10430.3779296875
local TWO_PI = 6.283185307179586
local EPS, TINY = 2.220446049250313e-16, 4.9406564584124654e-324

-- ------------------------------------------------------------------ world

-- Chunk key of chunk coordinates within +-2^15 (the bench's range), an exact double.
local function ckey(cx, cy, cz) return (cx * 65536 + cz) * 65536 + cy end

function M.new_world()
  -- chunks: key -> array of 4096 ids (index y*256 + z*16 + x + 1);
  -- nbox[id], boxes[id]: a type's box count and its flat array of 6-tuples.
  return { chunks = {}, nbox = { [0] = 0 }, boxes = {}, slip = { [0] = 0.6000000238418579 } }
end

function M.define(w, id, boxes)
  local flat = {}
  for i, b in ipairs(boxes) do
    for k = 1, 6 do flat[(i - 1) * 6 + k] = b[k] end
  end
  w.nbox[id], w.boxes[id], w.slip[id] = #boxes, flat, 0.6000000238418579
end

function M.set(w, x, y, z, id)
  local k = ckey(floor(x / 16), floor(y / 16), floor(z / 16))
  local c = w.chunks[k]
  if not c then
    c = {}
    for i = 1, 4096 do c[i] = 0 end
    w.chunks[k] = c
  end
  c[(y % 16) * 256 + (z % 16) * 16 + x % 16 + 1] = id
end

local function get(w, x, y, z)
  local c = w.chunks[ckey(floor(x / 16), floor(y / 16), floor(z / 16))]
  if not c then return 0 end
  return c[(y % 16) * 256 + (z % 16) * 16 + x % 16 + 1]
end

-- The boxes of the cells [x1..x2] x [y1..y2] x [z1..z2] into the flat list L (6 numbers
-- a box); returns the count of numbers. Extra boxes never change a clip, so the list
-- may cover more than a pass needs.
local L = {}
local function gather(w, x1, y1, z1, x2, y2, z2)
  local n = 0
  local chunks, nbox, boxes = w.chunks, w.nbox, w.boxes
  for cx = floor(x1 / 16), floor(x2 / 16) do
    local bx = cx * 16
    local ax, az_ = x1 > bx and x1 - bx or 0, x2 < bx + 15 and x2 - bx or 15
    for cz = floor(z1 / 16), floor(z2 / 16) do
      local bz = cz * 16
      local lz, hz = z1 > bz and z1 - bz or 0, z2 < bz + 15 and z2 - bz or 15
      for cy = floor(y1 / 16), floor(y2 / 16) do
        local c = chunks[(cx * 65536 + cz) * 65536 + cy]
        if c then
          local by = cy * 16
          local ly, hy = y1 > by and y1 - by or 0, y2 < by + 15 and y2 - by or 15
          for y = ly, hy do
            for z = lz, hz do
              local row = y * 256 + z * 16 + 1
              for x = ax, az_ do
                local id = c[row + x]
                if id ~= 0 then
                  local fx, fy, fz = bx + x, by + y, bz + z
                  local b = boxes[id]
                  for i = 0, nbox[id] * 6 - 1, 6 do
                    L[n + 1], L[n + 2], L[n + 3] = fx + b[i + 1], fy + b[i + 2], fz + b[i + 3]
                    L[n + 4], L[n + 5], L[n + 6] = fx + b[i + 4], fy + b[i + 5], fz + b[i + 6]
                    n = n + 6
                  end
                end
              end
            end
          end
        end
      end
    end
  end
  return n
end

-- bp_settle: shorten d until f + d does not pass `to` (a rounding past a face).
local function settle(f, d, to, sign)
  if sign * (f + d) <= sign * to then return d end -- never NaN here
  local step = EPS * math.max(math.abs(f), math.abs(to))
  if step < TINY then step = TINY end
  local i = 0
  while i < 64 and sign * (f + d) > sign * to do
    d = d - sign * step
    step = step * 2
    i = i + 1
  end
  if sign * d < 0 then d = 0 end
  return d
end

-- One pass of the box (x1..z2) along an axis over list entries 1..n, optionally only
-- boxes overlapping the region r1..r6 (the step's sink quirk).
local function clip_y(n, x1, y1, z1, x2, y2, z2, d)
  for i = 1, n, 6 do
    if x2 > L[i] and x1 < L[i + 3] and z2 > L[i + 2] and z1 < L[i + 5] then
      if d > 0 and y2 <= L[i + 1] then
        local gap = L[i + 1] - y2
        if gap <= d then d = settle(y2, gap, L[i + 1], 1) end
      elseif d < 0 and y1 >= L[i + 4] then
        local gap = L[i + 4] - y1
        if gap >= d then d = settle(y1, gap, L[i + 4], -1) end
      end
    end
  end
  return d
end

local function clip_y_within(n, x1, y1, z1, x2, y2, z2, d, r1, r2, r3, r4, r5, r6)
  for i = 1, n, 6 do
    if L[i + 3] > r1 and L[i] < r4 and L[i + 4] > r2 and L[i + 1] < r5 and L[i + 5] > r3
        and L[i + 2] < r6 and x2 > L[i] and x1 < L[i + 3] and z2 > L[i + 2] and z1 < L[i + 5] then
      if d > 0 and y2 <= L[i + 1] then
        local gap = L[i + 1] - y2
        if gap <= d then d = settle(y2, gap, L[i + 1], 1) end
      elseif d < 0 and y1 >= L[i + 4] then
        local gap = L[i + 4] - y1
        if gap >= d then d = settle(y1, gap, L[i + 4], -1) end
      end
    end
  end
  return d
end

local function clip_x(n, x1, y1, z1, x2, y2, z2, d)
  for i = 1, n, 6 do
    if y2 > L[i + 1] and y1 < L[i + 4] and z2 > L[i + 2] and z1 < L[i + 5] then
      if d > 0 and x2 <= L[i] then
        local gap = L[i] - x2
        if gap <= d then d = settle(x2, gap, L[i], 1) end
      elseif d < 0 and x1 >= L[i + 3] then
        local gap = L[i + 3] - x1
        if gap >= d then d = settle(x1, gap, L[i + 3], -1) end
      end
    end
  end
  return d
end

local function clip_z(n, x1, y1, z1, x2, y2, z2, d)
  for i = 1, n, 6 do
    if x2 > L[i] and x1 < L[i + 3] and y2 > L[i + 1] and y1 < L[i + 4] then
      if d > 0 and z2 <= L[i + 2] then
        local gap = L[i + 2] - z2
        if gap <= d then d = settle(z2, gap, L[i + 2], 1) end
      elseif d < 0 and z1 >= L[i + 5] then
        local gap = L[i + 5] - z1
        if gap >= d then d = settle(z1, gap, L[i + 5], -1) end
      end
    end
  end
  return d
end

-- ---------------------------------------------------------------- entities

-- Entity state, one flat array per field (index: the entity).
local X1, Y1, Z1, X2, Y2, Z2 = {}, {}, {}, {}, {}, {}
local VX, VY, VZ, YSIZE, FALL, GROUND, SIN, COS = {}, {}, {}, {}, {}, {}, {}, {}
M.state = { X1 = X1, Y1 = Y1, Z1 = Z1, X2 = X2, Y2 = Y2, Z2 = Z2, VX = VX, VY = VY, VZ = VZ }

-- MathHelper's table sine of a yaw in degrees (phase 0: sin, 16384: cos).
local function table_sin(yaw, phase)
  local rad = f32(f32(f32(yaw) * PI_F) / DEG_F)
  local t = f32(f32(rad * TABLE_F) + phase)
  local i = t >= 0 and floor(t) or -floor(-t)
  return f32(sin((i % 65536) * TWO_PI / 65536))
end

function M.spawn(i, x, y, z, yaw)
  X1[i], Y1[i], Z1[i] = x - HALF_WIDTH, y, z - HALF_WIDTH
  X2[i], Y2[i], Z2[i] = x + HALF_WIDTH, y + HEIGHT, z + HALF_WIDTH
  VX[i], VY[i], VZ[i] = 0, 0, 0
  YSIZE[i], FALL[i], GROUND[i] = 0, 0, false
  SIN[i], COS[i] = table_sin(yaw, 0), table_sin(yaw, 16384)
end

-- moveEntity (bp_move_axis) of entity i by (dx, dy, dz).
local function move(w, i, dx, dy, dz)
  local x1, y1, z1, x2, y2, z2 = X1[i], Y1[i], Z1[i], X2[i], Y2[i], Z2[i]
  local ys = f32(YSIZE[i] * CAMERA_DECAY)
  local ground = GROUND[i]
  local ox, oy, oz = dx, dy, dz
  -- one list over the move, the step and its down-probe
  local gx1, gy1, gz1 = x1 + (dx < 0 and dx or 0), y1 + (dy < 0 and dy or 0), z1 + (dz < 0 and dz or 0)
  local gx2, gy2, gz2 = x2 + (dx > 0 and dx or 0), y2 + (dy > 0 and dy or 0), z2 + (dz > 0 and dz or 0)
  if y1 - STEP < gy1 then gy1 = y1 - STEP end
  if y2 + STEP > gy2 then gy2 = y2 + STEP end
  local n = gather(w, floor(gx1), floor(gy1), floor(gz1), floor(gx2), floor(gy2), floor(gz2))
  dy = clip_y(n, x1, y1, z1, x2, y2, z2, dy)
  local by1, by2 = y1 + dy, y2 + dy
  local can_step = ground or (oy ~= dy and oy < 0)
  dx = clip_x(n, x1, by1, z1, x2, by2, z2, dx)
  local bx1, bx2 = x1 + dx, x2 + dx
  dz = clip_z(n, bx1, by1, z1, bx2, by2, z2, dz)
  local bz1, bz2 = z1 + dz, z2 + dz
  if can_step and ys < STEP_COOLDOWN and (ox ~= dx or oz ~= dz) then
    -- the step attempt from the start box; the down-probe sees only boxes of the
    -- region start extended by (ox, STEP, oz)
    local r1, r4 = x1 + (ox < 0 and ox or 0), x2 + (ox > 0 and ox or 0)
    local r3, r6 = z1 + (oz < 0 and oz or 0), z2 + (oz > 0 and oz or 0)
    local r2, r5 = y1, y2 + STEP
    local sy = clip_y(n, x1, y1, z1, x2, y2, z2, STEP)
    local sy1, sy2 = y1 + sy, y2 + sy
    local sx = clip_x(n, x1, sy1, z1, x2, sy2, z2, ox)
    local sx1, sx2 = x1 + sx, x2 + sx
    local sz = clip_z(n, sx1, sy1, z1, sx2, sy2, z2, oz)
    local sz1, sz2 = z1 + sz, z2 + sz
    local down = clip_y_within(n, sx1, sy1, sz1, sx2, sy2, sz2, -STEP, r1, r2, r3, r4, r5, r6)
    if dx * dx + dz * dz < sx * sx + sz * sz then
      bx1, by1, bz1, bx2, by2, bz2 = sx1, sy1 + down, sz1, sx2, sy2 + down, sz2
      dx, dy, dz = sx, down, sz
      local frac = by1 - (by1 >= 0 and floor(by1) or -floor(-by1))
      if frac > 0 then ys = f32(ys + (frac + 0.01)) end
    end
  end
  X1[i], Y1[i], Z1[i], X2[i], Y2[i], Z2[i] = bx1, by1, bz1, bx2, by2, bz2
  YSIZE[i] = ys
  local on_ground = oy ~= dy and oy < 0
  GROUND[i] = on_ground
  if on_ground then FALL[i] = 0 elseif dy < 0 then FALL[i] = f32(FALL[i] - dy) end
  if ox ~= dx then VX[i] = 0 end
  if oy ~= dy then VY[i] = 0 end
  if oz ~= dz then VZ[i] = 0 end
end

-- One Beta tick of entity i walking forward (input 1), jumping when `jumping`.
function M.tick(w, i, jumping)
  local ground = GROUND[i]
  if jumping and ground then VY[i] = JUMP end
  local forward = f32(1 * INPUT_DAMPING)
  local f = AIR_FRICTION
  if ground then
    local px, pz = (X1[i] + X2[i]) / 2, (Z1[i] + Z2[i]) / 2
    f = f32(w.slip[get(w, floor(px), floor(Y1[i]) - 1, floor(pz))] * AIR_FRICTION)
  end
  local accel
  if ground then
    accel = f32(GROUND_ACCEL * f32(ACCEL_FACTOR / f32(f32(f * f) * f)))
  else
    accel = AIR_ACCEL
  end
  -- heading: strafe 0; the length max(1, |input|) is 1, so the scale is accel
  local fw = f32(forward * accel)
  local s, c = SIN[i], COS[i]
  VX[i] = VX[i] + f32(f32(0 * c) - f32(fw * s))
  VZ[i] = VZ[i] + f32(f32(fw * c) + f32(0 * s))
  move(w, i, VX[i], VY[i], VZ[i])
  VY[i] = (VY[i] - GRAVITY) * VERTICAL_DRAG
  VX[i] = VX[i] * f
  VZ[i] = VZ[i] * f
end

return M
