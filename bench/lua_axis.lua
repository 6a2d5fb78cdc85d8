--- A plain pure-Lua implementation of the per-axis Beta rules, as a competent Lua
-- user would write it: blocks in a Lua table, boxes gathered once from the swept
-- region, clip Y then X then Z, step-up with the ySize cooldown, flags and fall
-- distance, and the tick of the reference: water and lava tests every tick (with
-- their branches), ladder test, jump, heading, slipperiness read before the move,
-- gravity, drag, friction. Left out: the sneak edge guard (the bench never sneaks)
-- and float rounding (doubles throughout). It is the bench's baseline for
-- world:step; it is not part of the library.
local floor, sqrt, sin, cos, rad = math.floor, math.sqrt, math.sin, math.cos, math.rad
local min, max = math.min, math.max

local M = {}

local GRAVITY, DRAG, AIR_F, JUMP = 0.08, 0.9800000190734863, 0.9100000262260437, 0.41999998688697815
local STEP = 0.5

-- Key of a block cell: fits the bench's coordinate range exactly in a double.
local function key(x, y, z) return (x * 8192 + z) * 1024 + y end

function M.new_world()
  return { blocks = {}, shapes = {}, slip = {}, liquid = {}, climbable = {} }
end

function M.define(w, id, boxes, slip, liquid, climbable)
  w.shapes[id] = boxes
  w.slip[id] = slip or 0.6000000238418579
  w.liquid[id] = liquid
  w.climbable[id] = climbable
end

-- Any block of the liquid kind in the cells floor(min) .. floor(max + 1) - 1.
local function liquid_in(w, x1, y1, z1, x2, y2, z2, kind)
  for x = floor(x1), floor(x2 + 1) - 1 do
    for y = floor(y1), floor(y2 + 1) - 1 do
      for z = floor(z1), floor(z2 + 1) - 1 do
        local id = w.blocks[key(x, y, z)]
        if id and w.liquid[id] == kind then return true end
      end
    end
  end
  return false
end

function M.set(w, x, y, z, id) w.blocks[key(x, y, z)] = id end

-- Boxes (world space, flat array of 6-tuples) of the cells the region can touch.
local function gather(w, x1, y1, z1, x2, y2, z2, out)
  local n = 0
  for x = floor(x1), floor(x2) do
    for z = floor(z1), floor(z2) do
      for y = floor(y1) - 1, floor(y2) do
        local id = w.blocks[key(x, y, z)]
        if id then
          for _, b in ipairs(w.shapes[id]) do
            local bx1, by1, bz1 = x + b[1], y + b[2], z + b[3]
            local bx2, by2, bz2 = x + b[4], y + b[5], z + b[6]
            if bx2 > x1 and bx1 < x2 and by2 > y1 and by1 < y2 and bz2 > z1 and bz1 < z2 then
              out[n + 1], out[n + 2], out[n + 3] = bx1, by1, bz1
              out[n + 4], out[n + 5], out[n + 6] = bx2, by2, bz2
              n = n + 6
            end
          end
        end
      end
    end
  end
  return n
end

local function clip_y(l, n, e, dy)
  for i = 1, n, 6 do
    if e[4] > l[i] and e[1] < l[i + 3] and e[6] > l[i + 2] and e[3] < l[i + 5] then
      if dy > 0 and e[5] <= l[i + 1] then dy = min(dy, l[i + 1] - e[5])
      elseif dy < 0 and e[2] >= l[i + 4] then dy = max(dy, l[i + 4] - e[2]) end
    end
  end
  return dy
end

local function clip_x(l, n, e, dx)
  for i = 1, n, 6 do
    if e[5] > l[i + 1] and e[2] < l[i + 4] and e[6] > l[i + 2] and e[3] < l[i + 5] then
      if dx > 0 and e[4] <= l[i] then dx = min(dx, l[i] - e[4])
      elseif dx < 0 and e[1] >= l[i + 3] then dx = max(dx, l[i + 3] - e[1]) end
    end
  end
  return dx
end

local function clip_z(l, n, e, dz)
  for i = 1, n, 6 do
    if e[4] > l[i] and e[1] < l[i + 3] and e[5] > l[i + 1] and e[2] < l[i + 4] then
      if dz > 0 and e[6] <= l[i + 2] then dz = min(dz, l[i + 2] - e[6])
      elseif dz < 0 and e[3] >= l[i + 5] then dz = max(dz, l[i + 5] - e[3]) end
    end
  end
  return dz
end

local function offset(b, dx, dy, dz)
  b[1], b[2], b[3] = b[1] + dx, b[2] + dy, b[3] + dz
  b[4], b[5], b[6] = b[4] + dx, b[5] + dy, b[6] + dz
end

local list = {}

-- Clip Y, X, Z against one gathered list; returns the clipped displacement.
local function clip_all(w, b, dx, dy, dz, sx, sy, sz)
  local n = gather(w, b[1] + min(sx, 0), b[2] + min(sy, 0), b[3] + min(sz, 0),
    b[4] + max(sx, 0), b[5] + max(sy, 0), b[6] + max(sz, 0), list)
  dy = clip_y(list, n, b, dy); offset(b, 0, dy, 0)
  dx = clip_x(list, n, b, dx); offset(b, dx, 0, 0)
  dz = clip_z(list, n, b, dz); offset(b, 0, 0, dz)
  return dx, dy, dz, n
end

function M.move(w, e, dx, dy, dz)
  local b = e.box
  e.y_size = e.y_size * 0.4000000059604645
  local start = { b[1], b[2], b[3], b[4], b[5], b[6] }
  local ox, oy, oz = dx, dy, dz
  dx, dy, dz = clip_all(w, b, dx, dy, dz, dx, dy, dz)
  local can_step = e.on_ground or (oy ~= dy and oy < 0)
  if can_step and e.y_size < 0.05000000074505806 and (ox ~= dx or oz ~= dz) then
    local s = { start[1], start[2], start[3], start[4], start[5], start[6] }
    -- the rise itself (the y result) is not reported, as in Beta
    local sx, _, sz = clip_all(w, s, ox, STEP, oz, ox, STEP, oz)
    local n = gather(w, s[1], s[2] - STEP, s[3], s[4], s[5], s[6], list)
    local down = clip_y(list, n, s, -STEP); offset(s, 0, down, 0)
    if dx * dx + dz * dz < sx * sx + sz * sz then
      for i = 1, 6 do b[i] = s[i] end
      dx, dy, dz = sx, down, sz
      local frac = b[2] - floor(b[2])
      if frac > 0 then e.y_size = e.y_size + frac + 0.01 end
    end
  end
  e.collided_h = ox ~= dx or oz ~= dz
  e.collided_v = oy ~= dy
  e.on_ground = oy ~= dy and oy < 0
  if e.on_ground then e.fall = 0 elseif dy < 0 then e.fall = e.fall - dy end
  if ox ~= dx then e.vx = 0 end
  if oy ~= dy then e.vy = 0 end
  if oz ~= dz then e.vz = 0 end
end

function M.spawn(x, y, z, yaw)
  local h = 0.30000001192092896
  return { box = { x - h, y, z - h, x + h, y + 1.7999999523162842, z + h },
           vx = 0, vy = 0, vz = 0, yaw = yaw, forward = 1, strafe = 0, jumping = false,
           sneaking = false, on_ground = false, collided_h = false, collided_v = false,
           y_size = 0, fall = 0 }
end

-- Input to a velocity change (moveFlying), added to vx, vz.
local function heading(e, strafe, forward, k)
  local len = sqrt(strafe * strafe + forward * forward)
  if len < 0.01 then return end
  len = k / max(len, 1)
  strafe, forward = strafe * len, forward * len
  local r = rad(e.yaw)
  local s, c = sin(r), cos(r)
  e.vx = e.vx + strafe * c - forward * s
  e.vz = e.vz + forward * c + strafe * s
end

local function liquid_branch(w, e, strafe, forward, drag)
  local y0 = e.box[2]
  heading(e, strafe, forward, 0.02)
  M.move(w, e, e.vx, e.vy, e.vz)
  e.vx, e.vy, e.vz = e.vx * drag, e.vy * drag - 0.02, e.vz * drag
  if e.collided_h then
    local b = e.box
    local dy = e.vy + 0.6 - (b[2] - y0)
    local n = gather(w, b[1] + e.vx, b[2] + dy, b[3] + e.vz, b[4] + e.vx, b[5] + dy, b[6] + e.vz, list)
    if n == 0 and not liquid_in(w, b[1] + e.vx, b[2] + dy, b[3] + e.vz,
                                b[4] + e.vx, b[5] + dy, b[6] + e.vz, "water") then
      e.vy = 0.3
    end
  end
end

function M.tick(w, e)
  local b = e.box
  local in_water = liquid_in(w, b[1] + 0.001, b[2] + 0.401, b[3] + 0.001,
                             b[4] - 0.001, b[5] - 0.401, b[6] - 0.001, "water")
  if in_water then e.fall = 0 end
  local strafe, forward = e.strafe, e.forward
  if e.sneaking then strafe, forward = strafe * 0.3, forward * 0.3 end
  local in_lava = liquid_in(w, b[1] + 0.1, b[2] + 0.4, b[3] + 0.1, b[4] - 0.1, b[5] - 0.4, b[6] - 0.1, "lava")
  if e.jumping then
    if in_water or in_lava then e.vy = e.vy + 0.04
    elseif e.on_ground then e.vy = JUMP end
  end
  strafe, forward = strafe * 0.98, forward * 0.98
  if in_water then return liquid_branch(w, e, strafe, forward, 0.8) end
  if in_lava then return liquid_branch(w, e, strafe, forward, 0.5) end
  local f = AIR_F
  if e.on_ground then
    local id = w.blocks[key(floor((b[1] + b[4]) / 2), floor(b[2]) - 1, floor((b[3] + b[6]) / 2))]
    f = (id and w.slip[id] or 0.6000000238418579) * AIR_F
  end
  heading(e, strafe, forward, e.on_ground and 0.1 * 0.16277136 / (f * f * f) or 0.02)
  local feet = w.blocks[key(floor((b[1] + b[4]) / 2), floor(b[2]), floor((b[3] + b[6]) / 2))]
  local ladder = feet and w.climbable[feet]
  if ladder then
    e.vx = min(0.15, max(-0.15, e.vx))
    e.vz = min(0.15, max(-0.15, e.vz))
    e.fall = 0
    if e.vy < -0.15 then e.vy = -0.15 end
  end
  M.move(w, e, e.vx, e.vy, e.vz)
  if ladder and e.collided_h then e.vy = 0.2 end
  e.vy = (e.vy - GRAVITY) * DRAG
  e.vx, e.vz = e.vx * f, e.vz * f
end

return M
