-- The calls blockphys.ffi takes over under LuaJIT (entity field reads and writes,
-- e:set_input, e:position(), world:set_inputs, world:positions), each with good and
-- bad values, live, removed and destroyed, inside and outside world:step; prints every
-- result and every error.
-- spec/ffi_spec.lua runs it with the fast path and without (BLOCKPHYS_NO_FFI) and
-- requires the same output.
local bp = require "blockphys"
local C = require "helpers.compat"
local have_ffi, ffi = pcall(require, "ffi")
local NULL = have_ffi and ffi.cast("void *", 0) or nil

local lines = {}
local function show(label, ok, ...)
  local parts = { label, tostring(ok) }
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if type(v) == "table" then
      local t = {}
      for k = 1, #v + 2 do t[k] = tostring(rawget(v, k)) end
      v = "{" .. table.concat(t, ",") .. "}"
    elseif type(v) == "number" then
      v = C.hexfloat(v)
    end
    parts[#parts + 1] = tostring(v)
  end
  lines[#lines + 1] = table.concat(parts, " ")
end

local w = bp.World()
w:define_block{ name = "stone" }
w:fill(-8, -1, -8, 8, -1, 8, "stone")
local e = w:spawn{ x = 0.5, y = 0, z = 0.5 }
local other = w:spawn{ x = 3.5, y = 0, z = 0.5, solid = true }

local FIELDS = { "x", "y", "z", "vx", "vy", "vz", "forward", "strafe", "yaw", "fall_distance",
  "landing_fall", "width", "height", "y_size", "step_offset", "on_ground",
  "collided_horizontally", "collided_vertically", "in_water", "in_lava", "in_web", "jumping",
  "sneaking", "flying", "solid", "stable", "group", "mask", "bogus", 1, true }
local VALUES = { 0.25, -0.5, 2, -1, 1, 0 / 0, 1 / 0, 1e300, "0.5", "x", true, false, {}, 7 }

local function sweep(tag)
  for _, k in ipairs(FIELDS) do
    show(tag .. " read " .. tostring(k), pcall(function() return e[k] end))
    for i, v in ipairs(VALUES) do
      show(tag .. " write " .. tostring(k) .. " " .. i, pcall(function() e[k] = v end))
    end
  end
  show(tag .. " write {} key", pcall(function() e[{}] = 1 end))
  show(tag .. " read {} key", pcall(function() return e[{}] end))
  local inputs = {
    { 1, 0, 90, true, false }, { -1, 1, -720, nil, true }, { 2, 0, 0 }, { 0, -2, 0 },
    { 0, 0, 0 / 0 }, { 0, 0 }, { 0 }, {}, { "1", 0, 0 }, { 0, 0, 0, 1 }, { 0, 0, 0, false, "x" },
    { 0.5, 0.5, 45, false, nil },
  }
  for i, a in ipairs(inputs) do
    show(tag .. " set_input method " .. i, pcall(function() e:set_input(C.unpack_table(a, 1, 5)) end))
    show(tag .. " set_input field " .. i, pcall(function() e.set_input(e, C.unpack_table(a)) end))
    show(tag .. " set_input pcall " .. i, pcall(e.set_input, e, C.unpack_table(a)))
  end
  show(tag .. " set_input on a world", pcall(function() e.set_input(w, 0, 0, 0) end))
  show(tag .. " set_input inputs", pcall(function() return e.forward, e.strafe, e.yaw, e.jumping, e.sneaking end))
  show(tag .. " positions", pcall(function() return w:positions() end))
  show(tag .. " positions out", pcall(function() return w:positions({ 9, 9, 9, 9, 9, 9, 9, 9, 9 }) end))
  show(tag .. " positions bad", pcall(function() return w:positions(5) end))
  show(tag .. " positions pcall", pcall(w.positions, w, "x"))
  show(tag .. " position", pcall(function() return e:position() end))
  show(tag .. " position field", pcall(function() return e.position(e) end))
  show(tag .. " position pcall", pcall(e.position, e))
  show(tag .. " position on a world", pcall(function() return e.position(w) end))
  local okn, list = pcall(w.entities, w)
  local n = okn and #list or 1
  local bulk = {
    {}, { 1, 0, 90, true, false }, { -1, 1, -720, nil, true }, { 2, 0, 0 }, { 0, -2, 0 },
    { 0, 0, 0 / 0 }, { 0, 0, 1 / 0 }, { "1", 0, 0 }, { 0, 0, 0, 1 }, { 0, 0, 0, false, "x" },
    { 0.5, 0.5, 45, false, nil }, { 0, 0 },
  }
  for i, a in ipairs(bulk) do
    -- the same five values for every entity but the last, which gets the case's
    local t = {}
    for k = 1, n do
      local src = k == n and a or bulk[11]
      for j = 1, 5 do t[5 * (k - 1) + j] = src[j] end
    end
    show(tag .. " set_inputs " .. i, pcall(function() w:set_inputs(t) end))
    show(tag .. " set_inputs pcall " .. i, pcall(w.set_inputs, w, t))
    show(tag .. " set_inputs then", pcall(function() return e.forward, e.strafe, e.yaw, e.jumping, e.sneaking end))
  end
  show(tag .. " set_inputs bad", pcall(function() w:set_inputs(5) end))
  show(tag .. " set_inputs none", pcall(function() w:set_inputs() end))
  show(tag .. " set_inputs on an entity", pcall(function() w.set_inputs(e, {}) end))
  if NULL then -- LuaJIT: a NULL pointer equals nil, but is no nil to the classic methods
    show(tag .. " set_input NULL jumping", pcall(function() e:set_input(0, 0, 0, NULL) end))
    show(tag .. " set_input NULL sneaking", pcall(function() e:set_input(0, 0, 0, false, NULL) end))
    show(tag .. " positions NULL", pcall(function() return w:positions(NULL) end))
    show(tag .. " set_inputs NULL", pcall(function() w:set_inputs(NULL) end))
    show(tag .. " set_inputs NULL flag", pcall(function() w:set_inputs{ 0, 0, 0, NULL, false, 0, 0, 0 } end))
  end
end

sweep("live")
-- inside world:step, from a rules hook: velocities are bounded there
e.rules = bp.rules.beta173{ jump = function(self)
  show("hook vx", pcall(function() self.vx = 5000 end))
  show("hook vx ok", pcall(function() self.vx = 0.5 end))
  show("hook vy read", pcall(function() return self.vy end))
  return 0.42
end }
e.jumping = true
show("step", pcall(w.step, w))
e.rules = bp.rules.beta173()
for _ = 1, 30 do w:step() end
show("after steps", pcall(function() return e.x, e.y, e.z, e.vx, e.vy, e.on_ground end))
w:remove(e)
sweep("removed")
e = other
w:destroy()
sweep("destroyed")
io.write(table.concat(lines, "\n"), "\n")
