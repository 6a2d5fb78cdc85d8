-- A playable blockphys demo in LÖVE: the shipped lobby (examples/data/limbo_spawn.schem)
-- in 3-D, a player under Beta 1.7.3's rules driven by keyboard and mouse, a crowd of
-- wandering mobs pushed apart by position, the world stepped at a fixed 20 ticks per
-- second by world:advance and drawn interpolated between ticks.
--
-- From the repository's root, after `make LUA=luajit` (LÖVE runs LuaJIT):
--   love examples/love           (or `make love`, which builds and runs it)
--   love examples/love --smoke   (the scripted check CI runs: `make love-smoke`)

-- LÖVE's require looks in the game's folder and its save folder: put the repository's
-- Lua modules and its LuaJIT build of the C module on the paths, found from this folder.
-- `--smoke` (see smoke.lua): any Lua error, from here on, ends the program with
-- status 1 instead of showing LÖVE's error screen.
local SMOKE = false
for _, a in ipairs(arg or {}) do
  if a == "--smoke" then SMOKE = true end
end
if SMOKE then
  love.errorhandler = function(msg)
    io.stderr:write("love-smoke: FAILED: Lua error: ", tostring(msg), "\n", debug.traceback(), "\n")
    io.stderr:flush()
    os.exit(1)
  end
end

local SOURCE = love.filesystem.getSource()
local ROOT = SOURCE:match("^(.+)[/\\]examples[/\\]love[/\\]?$")
  or (SOURCE:match("^examples[/\\]love[/\\]?$") and ".") or SOURCE .. "/../.."
package.path = ROOT .. "/lua/?.lua;" .. ROOT .. "/lua/?/init.lua;" .. package.path
package.cpath = ROOT .. "/build/luajit/?.so;" .. package.cpath

local view3d = require "view3d"
local scene_mod = require "scene"
local hud_mod = require "hud"
local smoke_mod = require "smoke"

local bp, scene, renderer, meshes, hud, smoke
local player
local cam = { pitch = -22, dist = 5, want = 5, first = false }
local yaw = 0            -- the player's heading, degrees (the camera's too)
local stats = { ticks = 0, seconds = 0, physics = 0, tps = 0, ms = 0, speed = 0 }
local last_pos = { 0, 0, 0 }
local drawn = {}         -- world:lerp_positions' array, reused
local alpha = 0
local SKY_TOP, SKY_LOW = { 0.20, 0.16, 0.42 }, { 0.62, 0.66, 0.86 }

local function load_blockphys()
  local ok, mod = pcall(require, "blockphys")
  if not ok then
    error("cannot load blockphys for LuaJIT from " .. ROOT .. ":\n" .. tostring(mod)
      .. "\n\nBuild it first, in the repository: make LUA=luajit (or run make love)", 0)
  end
  return mod
end

function love.load()
  if SMOKE then smoke = smoke_mod.new(ROOT) end
  bp = load_blockphys()
  scene = scene_mod.new(bp, ROOT .. "/examples/data/limbo_spawn.schem",
    { seed = 7, mobs = 32, yaw = smoke and smoke.start_yaw or nil })
  player = scene.player
  yaw = player.yaw
  local t0 = love.timer.getTime()
  meshes = view3d.build_world(scene.world, scene.x0, scene.y0 - 1, scene.z0, scene.x1, scene.y1 + 1, scene.z1)
  print(("lobby: %d blocks, %d triangles (built in %.0f ms), %d mobs; start (%.1f, %.1f, %.1f)"):format(
    scene.report.placed, meshes.triangles, (love.timer.getTime() - t0) * 1000, #scene.mobs,
    player.x, player.y, player.z))
  renderer = view3d.new({ fog = SKY_LOW })
  hud = hud_mod.new(scene)
  last_pos = { player.x, player.y, player.z }
  if smoke then
    smoke:begin(scene)
  else
    love.mouse.setRelativeMode(true)
  end
end

-- The player's input from the keyboard (and the turn the mouse made since the last frame).
local function read_input(dt)
  local kd = love.keyboard.isDown
  local forward = (kd("w", "up") and 1 or 0) - (kd("s", "down") and 1 or 0)
  local strafe = (kd("a") and 1 or 0) - (kd("d") and 1 or 0) -- > 0 is left
  if kd("left") then yaw = yaw - 150 * dt end
  if kd("right") then yaw = yaw + 150 * dt end
  if kd("pageup") then cam.pitch = math.min(80, cam.pitch + 90 * dt) end
  if kd("pagedown") then cam.pitch = math.max(-85, cam.pitch - 90 * dt) end
  return forward, strafe, kd("space"), kd("lshift", "rshift")
end

function love.update(dt)
  local forward, strafe, jump, sneak
  if smoke then
    dt = smoke.dt -- fixed frame times: the run is the same on every machine
    local turn
    forward, strafe, turn, jump, sneak = smoke:input()
    yaw = yaw + turn * dt
  else
    forward, strafe, jump, sneak = read_input(dt)
  end
  yaw = yaw % 360
  player:set_input(forward, strafe, yaw, jump, sneak)
  scene:think(dt)

  local t0 = love.timer.getTime()
  local ticks, a = scene.world:advance(dt)
  local spent = love.timer.getTime() - t0
  alpha = a

  -- Ticks per second and physics time per tick, over windows of a second.
  stats.ticks, stats.seconds, stats.physics = stats.ticks + ticks, stats.seconds + dt, stats.physics + spent
  if stats.seconds >= 1 - 1e-9 then
    stats.tps = stats.ticks / stats.seconds
    stats.ms = stats.ticks > 0 and stats.physics / stats.ticks * 1000 or 0
    stats.ticks, stats.seconds, stats.physics = 0, 0, 0
  end
  if ticks > 0 then
    local dx, dz = player.x - last_pos[1], player.z - last_pos[3]
    stats.speed = math.sqrt(dx * dx + dz * dz) / (ticks / scene.world.tick_rate)
    last_pos = { player.x, player.y, player.z }
  end
  if player.y < scene.y0 - 24 then -- fell off the island
    local s = scene.start
    player:teleport(s.x + 0.5, s.y, s.z + 0.5)
    player.vx, player.vy, player.vz = 0, 0, 0
  end
  -- The camera's distance eases out again after a wall pulled it in.
  cam.dist = cam.dist + (cam.want - cam.dist) * math.min(1, dt * 4)
  if smoke then smoke:update(player) end
end

-- The camera: behind the player's head along the view direction, pulled in front of
-- any block between (a ray from the head back to the camera).
local function place_camera()
  local px, py, pz = player:lerp(alpha)
  local eye_y = py + 1.62 - (player.sneaking and 0.08 or 0)
  local ry, rp = math.rad(yaw), math.rad(cam.pitch)
  local dx, dy, dz = -math.sin(ry) * math.cos(rp), math.sin(rp), math.cos(ry) * math.cos(rp)
  if cam.first then
    cam.x, cam.y, cam.z = px, eye_y, pz
    return px, eye_y, pz, dx, dy, dz
  end
  local d = cam.dist
  local hit = scene.world:raycast(px, eye_y, pz, -dx, -dy, -dz, d + 0.3)
  local body = scene.world:raycast_entities(px, eye_y, pz, -dx, -dy, -dz, d + 0.3, player)
  for _, h in ipairs({ hit or false, body or false }) do
    if h and h.distance - 0.3 < d then
      d = math.max(0.4, h.distance - 0.3)
      cam.dist = math.min(cam.dist, d)
    end
  end
  cam.x, cam.y, cam.z = px - dx * d, eye_y - dy * d, pz - dz * d
  return cam.x, cam.y, cam.z, dx, dy, dz
end

-- How each kind of entity is drawn: its box in bands of colour from the feet up (each
-- band's top as a fraction of the height), and a snout or face along its facing: half
-- its width, how far beyond the box, its bottom and top below the box's top, colour.
local LOOKS = {
  player = { bands = { { 0.42, 0.20, 0.22, 0.42 }, { 0.72, 0.96, 0.52, 0.12 }, { 1, 0.86, 0.64, 0.50 } },
             snout = { 0.20, 0.10, 0.30, 0.16, 0.30, 0.20, 0.14 } },
  pig = { bands = { { 1, 0.93, 0.60, 0.66 } }, snout = { 0.18, 0.14, 0.45, 0.20, 0.80, 0.42, 0.50 } },
  sheep = { bands = { { 0.62, 0.93, 0.92, 0.88 }, { 1, 0.58, 0.53, 0.50 } },
            snout = { 0.18, 0.12, 0.42, 0.18, 0.45, 0.40, 0.38 } },
  zombie = { bands = { { 0.42, 0.26, 0.28, 0.60 }, { 0.72, 0.14, 0.58, 0.60 }, { 1, 0.40, 0.62, 0.36 } },
             snout = { 0.20, 0.08, 0.30, 0.16, 0.22, 0.36, 0.20 } },
}

-- Every entity's box with its snout, and a soft shadow on the first block under it.
local entity_list, shadow_list = view3d.list(), view3d.list()
local function entity_vertices()
  local v, shadows = entity_list, shadow_list
  view3d.reset(v)
  view3d.reset(shadows)
  scene.world:lerp_positions(alpha, drawn)
  for i, e in ipairs(scene.world:entities()) do
    local x, y, z = drawn[3 * i - 2], drawn[3 * i - 1], drawn[3 * i]
    local hw, h = e.width / 2, e.height
    local mob = scene.mob_of[e]
    -- Not the player in first person, nor an entity the camera is in or almost in.
    local near = math.abs(cam.x - x) < hw + 0.3 and math.abs(cam.z - z) < hw + 0.3 and cam.y > y - 0.3
      and cam.y < y + h + 0.3
    if not near and (e ~= player or not cam.first) then
      local look = LOOKS[mob and mob.kind or "player"]
      local k = mob and 0.92 + 0.16 * mob.hue or 1 -- each mob a little lighter or darker
      local below = y
      for _, band in ipairs(look.bands) do
        local top = y + band[1] * h
        view3d.add_box(v, x - hw, below, z - hw, x + hw, top, z + hw, band[2] * k, band[3] * k, band[4] * k, 1)
        below = top
      end
      local sn = look.snout
      view3d.add_turned_box(v, x, z, e == player and yaw or e.yaw, sn[1], 0, hw + sn[2],
        y + h - sn[3], y + h - sn[4], sn[5] * k, sn[6] * k, sn[7] * k, 1)
    end
    local hit = scene.world:raycast(x, y + 0.05, z, 0, -1, 0, 8)
    if hit then
      view3d.add_disc(shadows, x, hit.hy + 0.02, z, hw * 1.6, 0.05, 0.02, 0.10, 0.55 * (1 - (y - hit.hy) / 8))
    end
  end
  for i = 1, shadows.n do
    local t = shadows[i]
    view3d.add_vertex(v, t)
  end
  return v
end

-- The sky: a gradient from the zenith's colour down to the fog's at the horizon, whose
-- height on the screen follows the pitch; the fog's colour below it.
local sky
local function draw_sky()
  local W, H = love.graphics.getDimensions()
  local horizon = H / 2 + math.tan(math.rad(cam.pitch)) / math.tan(math.rad(renderer.fovy / 2)) * H / 2
  local t, l = SKY_TOP, SKY_LOW
  local corners = {
    { 0, horizon - H, 0, 0, t[1], t[2], t[3], 1 }, { W, horizon - H, 0, 0, t[1], t[2], t[3], 1 },
    { W, horizon, 0, 0, l[1], l[2], l[3], 1 }, { 0, horizon, 0, 0, l[1], l[2], l[3], 1 },
  }
  if sky then sky:setVertices(corners) else sky = love.graphics.newMesh(corners, "fan", "stream") end
  love.graphics.setColor(1, 1, 1)
  love.graphics.draw(sky)
end

function love.draw()
  love.graphics.clear(SKY_LOW[1], SKY_LOW[2], SKY_LOW[3], 1, false, true)
  draw_sky()
  renderer:camera(place_camera())
  renderer:draw(meshes, entity_vertices())
  hud:draw({
    x = player.x, y = player.y, z = player.z, vx = player.vx, vy = player.vy, vz = player.vz,
    yaw = yaw, speed = stats.speed, on_ground = player.on_ground, sneaking = player.sneaking,
    tps = stats.tps, tick_rate = scene.world.tick_rate, ms_per_tick = stats.ms,
    fps = love.timer.getFPS(), entities = #scene.mobs + 1,
  })
  if smoke then smoke:draw() end
end

function love.mousemoved(_, _, dx, dy)
  if smoke or not love.mouse.getRelativeMode() then return end
  yaw = yaw + dx * 0.15
  cam.pitch = math.max(-85, math.min(80, cam.pitch - dy * 0.15))
end

function love.wheelmoved(_, dy)
  cam.want = math.max(1.5, math.min(14, cam.want - dy * 0.8))
end

function love.mousepressed()
  if not smoke then love.mouse.setRelativeMode(true) end
end

function love.keypressed(key)
  if smoke then return end
  if key == "escape" then
    if love.mouse.getRelativeMode() then love.mouse.setRelativeMode(false) else love.event.quit() end
  elseif key == "v" then
    cam.first = not cam.first
  elseif key == "f1" then
    hud.visible = not hud.visible
  elseif key == "r" then
    local s = scene.start
    player:teleport(s.x + 0.5, s.y, s.z + 0.5)
    player.vx, player.vy, player.vz = 0, 0, 0
  end
end
