-- hud.lua: what is drawn over the 3-D view. A panel with the player's state and the
-- physics' timing, a minimap (the lobby from above, each column the colour of its
-- highest block shaded by height, with every entity on it) and the controls.
local view3d = require "view3d"

local hud = {}

local PANEL = { 0.06, 0.05, 0.12, 0.72 }
local TEXT = { 0.95, 0.94, 1.0 }
local DIM = { 0.70, 0.68, 0.82 }
local MOB_DOTS = { pig = { 1, 0.62, 0.70 }, sheep = { 0.96, 0.96, 0.92 }, zombie = { 0.45, 0.80, 0.38 } }

function hud.new(scene)
  local self = { scene = scene, visible = true }
  self.font = love.graphics.newFont(14)
  self.big = love.graphics.newFont(18)
  -- The minimap: one pixel per column over the columns that hold blocks (and one
  -- around), north (-Z) up.
  local lo, hi, x0, x1, z0, z1 = math.huge, -math.huge, math.huge, -math.huge, math.huge, -math.huge
  for x = scene.x0, scene.x1 do
    for z = scene.z0, scene.z1 do
      local t = scene.top[x][z]
      if t then
        lo, hi = math.min(lo, t.y), math.max(hi, t.y)
        x0, x1, z0, z1 = math.min(x0, x - 1), math.max(x1, x + 1), math.min(z0, z - 1), math.max(z1, z + 1)
      end
    end
  end
  local data = love.image.newImageData(x1 - x0 + 1, z1 - z0 + 1)
  for x = x0, x1 do
    for z = z0, z1 do
      local t = scene.top[x] and scene.top[x][z]
      if t then
        local r, g, b = view3d.block_colour(scene.world:block_info(t.id).name)
        local k = 0.45 + 0.65 * (t.y - lo) / math.max(1, hi - lo)
        data:setPixel(x - x0, z - z0, math.min(1, r * k), math.min(1, g * k), math.min(1, b * k), 1)
      end
    end
  end
  self.map, self.map_x0, self.map_z0 = love.graphics.newImage(data), x0, z0
  self.map:setFilter("nearest", "nearest")
  self.map_scale = math.max(2, math.floor(200 / math.max(data:getWidth(), data:getHeight())))
  return setmetatable(self, { __index = hud })
end

local function fmt3(a, b, c, p)
  local f = "%" .. (p or "8.3f")
  return (f .. " " .. f .. " " .. f):format(a, b, c)
end

-- s: {x, y, z, vx, vy, vz, speed, on_ground, sneaking, tps, ms_per_tick, fps, entities, view}
function hud:draw(s)
  local lg = love.graphics
  local W, H = lg.getDimensions()
  lg.push("all")
  lg.setDepthMode()
  if self.visible then
    -- The panel.
    local lines = {
      { "position", fmt3(s.x, s.y, s.z) },
      { "velocity", fmt3(s.vx, s.vy, s.vz) .. "  b/t" },
      { "speed", ("%8.2f b/s"):format(s.speed) }, -- horizontal, blocks per second
      { "on_ground", (s.on_ground and "yes" or "no") .. (s.sneaking and "   sneaking" or "") },
      { "ticks/s", ("%8.1f   (%d Hz fixed)"):format(s.tps, s.tick_rate) },
      { "physics", ("%8.3f ms/tick  (%d entities)"):format(s.ms_per_tick, s.entities) },
      { "frames/s", ("%8.0f"):format(s.fps) },
    }
    lg.setFont(self.big)
    lg.setColor(PANEL)
    lg.rectangle("fill", 12, 12, 372, 44 + #lines * 19, 8, 8)
    lg.setColor(TEXT)
    lg.print("blockphys", 24, 20)
    lg.setFont(self.font)
    lg.setColor(DIM)
    lg.print("Beta 1.7.3 rules, separate push", 124, 23)
    for i, l in ipairs(lines) do
      local y = 32 + i * 19
      lg.setColor(DIM)
      lg.print(l[1], 24, y)
      lg.setColor(TEXT)
      lg.print(l[2], 104, y)
    end
    -- The controls.
    local help = "WASD walk   mouse / arrows turn   space jump   shift sneak   wheel zoom   "
      .. "V view   R respawn   F1 panel   Esc quit"
    local tw = self.font:getWidth(help)
    lg.setColor(PANEL)
    lg.rectangle("fill", (W - tw) / 2 - 12, H - 36, tw + 24, 26, 8, 8)
    lg.setColor(DIM)
    lg.print(help, (W - tw) / 2, H - 31)
  end
  -- The minimap, top right.
  local sc = self.scene
  local k = self.map_scale
  local mw, mh = self.map:getWidth() * k, self.map:getHeight() * k
  local mx, my = W - mw - 16, 16
  lg.setColor(PANEL)
  lg.rectangle("fill", mx - 6, my - 6, mw + 12, mh + 12, 8, 8)
  lg.setColor(1, 1, 1, 1)
  lg.draw(self.map, mx, my, 0, k, k)
  local function to_map(x, z) return mx + (x - self.map_x0) * k, my + (z - self.map_z0) * k end
  for _, m in ipairs(sc.mobs) do
    local px, py = to_map(m.e.x, m.e.z)
    lg.setColor(0.08, 0.06, 0.12)
    lg.circle("fill", px, py, 3.5)
    lg.setColor(MOB_DOTS[m.kind] or TEXT)
    lg.circle("fill", px, py, 2.5)
  end
  -- The player: an arrow along its facing (yaw 0 faces +Z, down on the map).
  local px, py = to_map(s.x, s.z)
  local r = math.rad(s.yaw)
  local fx, fz = -math.sin(r), math.cos(r)
  lg.setColor(1, 0.85, 0.2)
  lg.polygon("fill", px + fx * 9, py + fz * 9, px - fx * 5 + fz * 5, py - fz * 5 - fx * 5,
    px - fx * 5 - fz * 5, py - fz * 5 + fx * 5)
  lg.pop()
end

return hud
