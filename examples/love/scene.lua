-- scene.lua: the demo's world. The shipped lobby pasted around the origin, the
-- surfaces one can stand on, the player and a crowd of wandering mobs (Beta 1.7.3
-- rules with positional separation), and the mobs' random walks.
local scene = {}
scene.__index = scene

local HEADROOM = 1.8 -- an entity's height: a surface needs this much room above it
local HALF = 0.3     -- half an entity's width

-- The mobs' kinds, with Beta's boxes (blocks).
scene.KINDS = {
  { name = "pig", width = 0.9, height = 0.9 },
  { name = "sheep", width = 0.9, height = 1.3 },
  { name = "zombie", width = 0.6, height = 1.8 },
}

-- opts: seed (of the mobs' random walks), mobs (how many), yaw (the player's at the start).
function scene.new(bp, schem_path, opts)
  local self = setmetatable({ bp = bp }, scene)
  local schem = assert(bp.schematic.load(schem_path))
  local world = bp.World()
  -- Centred on the origin at height 64, as examples/lobby.lua pastes it.
  self.x0, self.y0, self.z0 = -math.floor(schem.width / 2), 64, -math.floor(schem.length / 2)
  self.x1 = self.x0 + schem.width - 1
  self.y1 = self.y0 + schem.height - 1
  self.z1 = self.z0 + schem.length - 1
  self.report = assert(world:paste(schem, self.x0, self.y0, self.z0))
  self.world, self.schem = world, schem
  self.rng = love.math.newRandomGenerator(opts.seed or 1)
  self:find_surfaces()

  -- One rules table for every entity ("separate": they push each other apart by
  -- position), step_sink_fix so that no box ever ends inside a block.
  self.rules = bp.rules.beta173{ push = "separate", step_sink_fix = true }
  local s = self.start
  self.player = world:spawn{ x = s.x + 0.5, y = s.y, z = s.z + 0.5, yaw = opts.yaw or 0, rules = self.rules }
  self.mobs, self.mob_of = {}, {}
  local spots = self:spawn_spots(opts.mobs or 30)
  for i, n in ipairs(spots) do
    local kind = scene.KINDS[(i - 1) % #scene.KINDS + 1]
    local e = world:spawn{ x = n.x + 0.5, y = n.y, z = n.z + 0.5, width = kind.width, height = kind.height,
                           rules = self.rules, yaw = self.rng:random(0, 359) }
    self.mobs[i] = { e = e, kind = kind.name, target = e.yaw, timer = 0, forward = 0, hue = self.rng:random() }
    self.mob_of[e] = self.mobs[i]
  end
  return self
end

-- Standable surfaces: the top of a block box with HEADROOM free above it over an
-- entity's footprint at the column's centre. by_column["x,z"] = {{x, y, z}, ...};
-- top[x][z] = the highest box top of the column and its block id (the minimap).
function scene:find_surfaces()
  local bp, world = self.bp, self.world
  local by_column, all = {}, {}
  self.top = {}
  for x = self.x0, self.x1 do
    self.top[x] = {}
    for z = self.z0, self.z1 do
      local cx, cz = x + 0.5, z + 0.5
      local function footprint(y1, y2) return bp.Collider(cx - HALF, y1, cz - HALF, cx + HALF, y2, cz + HALF) end
      local seen, best = {}, nil
      for _, b in ipairs(world:boxes_in(footprint(self.y0 - 1, self.y1 + 2))) do
        local y = b.y2
        if not best or y > best then best = y end
        if not seen[y] and #world:boxes_in(footprint(y, y + HEADROOM)) == 0 then
          seen[y] = true
          local n = { x = x, y = y, z = z }
          local k = x .. "," .. z
          by_column[k] = by_column[k] or {}
          table.insert(by_column[k], n)
          all[#all + 1] = n
        end
      end
      if best then
        -- the block whose box is highest: the cell holding that top (a box may reach y + 2)
        local id
        for y = math.ceil(best) - 1, math.ceil(best) - 2, -1 do
          id = world:get_block(x, y, z)
          if id ~= 0 then break end
        end
        self.top[x][z] = { y = best, id = id }
      end
    end
  end
  self.by_column, self.surfaces = by_column, all

  -- The start: on the floor one walks (steps of at most half a block between
  -- neighbouring columns) over the largest area, at its most common height, under the
  -- open sky, nearest the area's middle. The mobs roam the largest area joined by
  -- rises and drops of at most a block (they jump).
  local largest = self:largest_region(0.5)
  self.walkable = self:largest_region(1)
  local count_y, floor_y = {}, nil
  for _, n in ipairs(largest) do count_y[n.y] = (count_y[n.y] or 0) + 1 end
  for y, c in pairs(count_y) do
    if not floor_y or c > count_y[floor_y] or (c == count_y[floor_y] and y < floor_y) then floor_y = y end
  end
  local cx, cz = 0, 0 -- the region's middle
  for _, n in ipairs(largest) do cx, cz = cx + n.x + 0.5, cz + n.z + 0.5 end
  cx, cz = cx / #largest, cz / #largest
  local best
  for _, n in ipairs(largest) do
    local d = (n.x + 0.5 - cx) ^ 2 + (n.z + 0.5 - cz) ^ 2
    if n.y == floor_y and self:open_sky(n) and (not best or d < best.d) then best = { n = n, d = d } end
  end
  self.start = best and best.n or largest[1]
end

-- The largest set of surfaces joined by rises or drops of at most `step` blocks between
-- neighbouring columns, sorted by x, z and y.
function scene:largest_region(step)
  local by_column, region_of, largest = self.by_column, {}, nil
  for _, s in ipairs(self.surfaces) do
    if not region_of[s] then
      local queue, head = { s }, 1
      region_of[s] = queue
      while head <= #queue do
        local n = queue[head]
        head = head + 1
        for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
          for _, m in ipairs(by_column[(n.x + d[1]) .. "," .. (n.z + d[2])] or {}) do
            if not region_of[m] and math.abs(m.y - n.y) <= step then
              region_of[m] = queue
              queue[#queue + 1] = m
            end
          end
        end
      end
      if not largest or #queue > #largest then largest = queue end
    end
  end
  table.sort(largest, function(a, b)
    if a.x ~= b.x then return a.x < b.x end
    if a.z ~= b.z then return a.z < b.z end
    return a.y < b.y
  end)
  return largest
end

-- True when nothing is above surface n (at the column's centre) up to the top.
function scene:open_sky(n)
  local cx, cz = n.x + 0.5, n.z + 0.5
  return #self.world:boxes_in(self.bp.Collider(cx - HALF, n.y, cz - HALF, cx + HALF, self.y1 + 2, cz + HALF)) == 0
end

-- n distinct walkable surfaces, not the start's column nor next to it, at random.
function scene:spawn_spots(n)
  local pool = {}
  for _, s in ipairs(self.walkable) do
    if math.abs(s.x - self.start.x) + math.abs(s.z - self.start.z) > 2 then pool[#pool + 1] = s end
  end
  local out = {}
  for i = 1, math.min(n, #pool) do
    local j = self.rng:random(i, #pool)
    pool[i], pool[j] = pool[j], pool[i]
    out[i] = pool[i]
  end
  return out
end

-- A random walkable surface (a mob or player that fell off the island goes back there).
function scene:random_spot()
  return self.walkable[self.rng:random(1, #self.walkable)]
end

-- True when there is ground within `depth` blocks below the point (x, y, z).
function scene:ground_below(x, y, z, depth)
  return self.world:raycast(x, y, z, 0, -1, 0, depth) ~= nil
end

local function angle_diff(a, b) -- b - a, in (-180, 180]
  return (b - a + 180) % 360 - 180
end
scene.angle_diff = angle_diff

-- The mobs' random walks, once per frame before world:advance: each walks toward a
-- heading it picks every few seconds (or stands a while), turns smoothly, turns away
-- from a drop ahead, and jumps when a wall stops it (now and then just for fun).
function scene:think(dt)
  local rng = self.rng
  for _, m in ipairs(self.mobs) do
    local e = m.e
    m.timer = m.timer - dt
    if m.timer <= 0 then
      if rng:random() < 0.25 then
        m.forward, m.timer = 0, 0.5 + 1.5 * rng:random()            -- stand a while
      else
        m.target = (m.target + rng:random(-120, 120)) % 360
        m.forward, m.timer = 0.45 + 0.4 * rng:random(), 1 + 3 * rng:random()
      end
    end
    -- Turn toward the target heading, at most 200 degrees a second.
    local d = angle_diff(e.yaw, m.target)
    local turn = math.max(-200 * dt, math.min(200 * dt, d))
    local yaw = (e.yaw + turn) % 360
    -- A drop ahead (no ground within 3 blocks under a point one block ahead): turn round.
    local r = math.rad(yaw)
    local ax, az = e.x - math.sin(r) * 1.0, e.z + math.cos(r) * 1.0
    if m.forward > 0 and e.on_ground and not self:ground_below(ax, e.y + 0.6, az, 3.6) then
      m.target = (yaw + 180 + rng:random(-45, 45)) % 360
      m.forward = 0
      m.timer = 0.6
    end
    local jump = m.forward > 0 and e.on_ground and (e.collided_horizontally or rng:random() < 0.15 * dt)
    e:set_input(m.forward, 0, yaw, jump, false)
    if e.y < self.y0 - 24 then
      local s = self:random_spot()
      e:teleport(s.x + 0.5, s.y + 0.5, s.z + 0.5)
      e.vx, e.vy, e.vz = 0, 0, 0
    end
  end
end

return scene
