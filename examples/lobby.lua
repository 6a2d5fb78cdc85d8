--- lobby.lua: a real map. Loads a schematic (default: the Limbo spawn lobby),
-- pastes it, drops a grid of entities over it and lets them settle, then walks a
-- player along a route through it, jumping where it is blocked and stepping up
-- slabs and stairs.
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/lobby.lua [path.schem] [beta173]
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
-- (either argument alone, in either order; the schematic is the Limbo spawn lobby of
-- examples/data/ by default, found beside this script: examples/data/README.md)
-- With `beta173`, blocks get Beta 1.7.3's collision shapes where they differ from
-- today's (bp.minecraft.beta173: fences, ladders, snow, chests, farmland, extended
-- pistons, cake, stairs, beds).
local bp = require "blockphys"

-- The sample beside this script: "examples/data/limbo_spawn.schem" when run from the
-- checkout's root as above.
local HERE = arg and arg[0] and (arg[0]:match("^(.*[/\\])") or "") or "examples/"
local DEFAULT = HERE .. "data/limbo_spawn.schem"
local HEADROOM = 1.8   -- the player's height: a surface is standable with this much room
local MAX_RISE = 1.125 -- a Beta jump clears about 1.25 blocks; keep a margin
local MAX_DROP = 4     -- deepest drop the route planner allows
local PLAYER_HALF = 0.3

-- Arguments in any order: a path, and the word beta173.
local path, shapes = DEFAULT, bp.minecraft
for _, a in ipairs(arg or {}) do
  if a == "beta173" then shapes = bp.minecraft.beta173 else path = a end
end
local f = io.open(path, "rb")
if not f then
  io.stderr:write(("lobby.lua: no schematic at %s\n"):format(path),
    "usage: lua5.4 examples/lobby.lua [file.schem] [beta173]  (default ", DEFAULT, ")\n")
  os.exit(1)
end
f:close()

-- 1. Load and paste --------------------------------------------------------------

local schem, err = bp.schematic.load(path)
if not schem then
  io.stderr:write("lobby.lua: ", err, "\n")
  os.exit(1)
end
-- Centred on the origin at height 64: negative block coordinates and several
-- chunk borders come into play.
local X0, Y0, Z0 = -math.floor(schem.width / 2), 64, -math.floor(schem.length / 2)
local world = bp.World()
local report = assert(world:paste(schem, X0, Y0, Z0, shapes))
print(("loaded %s: %d x %d x %d (width x height x length), %d palette entries"):format(
  path, schem.width, schem.height, schem.length, #schem.palette))
print(("pasted at (%d, %d, %d): %d blocks placed, %d block types"):format(
  X0, Y0, Z0, report.placed, world:stats().block_types - 1))
if #report.guessed > 0 then
  print("  guessed shapes (became full cubes): " .. table.concat(report.guessed, ", "))
else
  print("  every block state had a known shape")
end

local TOP = Y0 + schem.height + 1 -- above everything pasted

local function name_of(id)
  return world:block_info(id).name:gsub("^minecraft:", "")
end

-- The block under a box: sweep it down a little; the first box met (t = 0 when it
-- rests on it) names the block. nil over air or a static collider.
local function block_under(box)
  local _, _, _, _, hit = world:sweep(box, 0, -0.25, 0)
  return hit and hit.id and name_of(hit.id), hit
end

local function footprint(cx, y, cz, h)
  return bp.Collider(cx - PLAYER_HALF, y, cz - PLAYER_HALF, cx + PLAYER_HALF, y + h, cz + PLAYER_HALF)
end

-- 2. Drop a grid of entities -------------------------------------------------------

-- One entity over the centre of every column that holds a shape.
local dropped, expected = {}, {}
for z = Z0, Z0 + schem.length - 1 do
  for x = X0, X0 + schem.width - 1 do
    local column = world:boxes_in(footprint(x + 0.5, Y0 - 1, z + 0.5, TOP - Y0 + 1))
    if #column > 0 then
      local top = -math.huge
      for _, b in ipairs(column) do top = math.max(top, b.y2) end
      local e = world:spawn{ x = x + 0.5, y = TOP, z = z + 0.5,
                             rules = bp.rules.beta173{ step_sink_fix = true, push = false } }
      dropped[#dropped + 1] = e
      expected[e] = top
    end
  end
end

-- Step until a whole tick changes no height and every entity is on the ground.
local ticks, last = 0, {}
repeat
  world:step()
  ticks = ticks + 1
  local still = true
  for _, e in ipairs(dropped) do
    if not e.on_ground or last[e] ~= e.y then still = false end
    last[e] = e.y
  end
until still or ticks >= 400

local rest, exact, surfaces = 0, 0, {}
for _, e in ipairs(dropped) do
  if e.on_ground then
    rest = rest + 1
    local under = block_under(e:box()) or "?"
    surfaces[under] = (surfaces[under] or 0) + 1
  end
  if e.y == expected[e] then exact = exact + 1 end
end
print(("\ndropped %d entities (one per column with a shape) from y = %d"):format(#dropped, TOP))
print(("  after %d ticks: %d at rest, %d exactly on the highest shape of their column"):format(
  ticks, rest, exact))
local names = {}
for k in pairs(surfaces) do names[#names + 1] = k end
table.sort(names, function(a, b)
  if surfaces[a] ~= surfaces[b] then return surfaces[a] > surfaces[b] end
  return a < b
end)
for _, k in ipairs(names) do print(("  %4d on %s"):format(surfaces[k], k)) end
for _, e in ipairs(dropped) do world:remove(e) end

-- 3. Walkable surfaces and a route -------------------------------------------------

-- Standable surfaces: the top of a shape with HEADROOM free above it over the
-- player's footprint at the column centre. nodes[key] = {x, z, y, name}.
local nodes, by_column = {}, {}
local function key(x, z, y) return x .. "," .. z .. "," .. y end
for z = Z0, Z0 + schem.length - 1 do
  for x = X0, X0 + schem.width - 1 do
    local cx, cz = x + 0.5, z + 0.5
    local seen = {}
    for _, b in ipairs(world:boxes_in(footprint(cx, Y0 - 1, cz, TOP - Y0 + 1))) do
      local y = b.y2
      if not seen[y] and #world:boxes_in(footprint(cx, y, cz, HEADROOM)) == 0 then
        seen[y] = true
        local n = { x = x, z = z, y = y, name = block_under(footprint(cx, y, cz, HEADROOM)) }
        nodes[key(x, z, y)] = n
        by_column[x .. "," .. z] = by_column[x .. "," .. z] or {}
        table.insert(by_column[x .. "," .. z], n)
      end
    end
  end
end

-- Neighbours: the four adjacent columns, rising at most MAX_RISE or dropping at
-- most MAX_DROP, with the corridor between the two centres clear at the higher
-- level (and room to jump when rising more than a step).
local function corridor_clear(a, b)
  local lo = math.max(a.y, b.y)
  local h = HEADROOM + (b.y - a.y > 0.5 and 1.25 or 0)
  local x1, x2 = math.min(a.x, b.x) + 0.5, math.max(a.x, b.x) + 0.5
  local z1, z2 = math.min(a.z, b.z) + 0.5, math.max(a.z, b.z) + 0.5
  local box = bp.Collider(x1 - PLAYER_HALF, lo, z1 - PLAYER_HALF, x2 + PLAYER_HALF, lo + h,
                          z2 + PLAYER_HALF)
  return #world:boxes_in(box) == 0
end

local DIRS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
local function neighbours(n)
  local out = {}
  for _, d in ipairs(DIRS) do
    for _, m in ipairs(by_column[(n.x + d[1]) .. "," .. (n.z + d[2])] or {}) do
      local rise = m.y - n.y
      if rise <= MAX_RISE and -rise <= MAX_DROP and corridor_clear(n, m) then
        out[#out + 1] = m
      end
    end
  end
  return out
end

-- Breadth-first search from `from`: parent links and the visiting order.
local function bfs(from)
  local parent, order, head = { [from] = false }, { from }, 1
  while head <= #order do
    local n = order[head]
    head = head + 1
    for _, m in ipairs(neighbours(n)) do
      if parent[m] == nil then
        parent[m] = n
        order[#order + 1] = m
      end
    end
  end
  return parent, order
end

local function path_to(parent, goal)
  local p = {}
  while goal do
    table.insert(p, 1, goal)
    goal = parent[goal]
  end
  return p
end

-- Start: the most common standable height, the column nearest the centre.
local count_y, all = {}, {}
for _, n in pairs(nodes) do
  count_y[n.y] = (count_y[n.y] or 0) + 1
  all[#all + 1] = n
end
table.sort(all, function(a, b)
  if a.y ~= b.y then return a.y < b.y end
  if a.z ~= b.z then return a.z < b.z end
  return a.x < b.x
end)
local floor_y, start = nil, nil
for y, c in pairs(count_y) do
  if not floor_y or c > count_y[floor_y] or (c == count_y[floor_y] and y < floor_y) then floor_y = y end
end
local cx, cz = X0 + schem.width / 2, Z0 + schem.length / 2
for _, n in ipairs(all) do
  local d = (n.x + 0.5 - cx) ^ 2 + (n.z + 0.5 - cz) ^ 2
  if n.y == floor_y and (not start or d < start.d) then start = { n = n, d = d } end
end
start = start and start.n
if not start then
  print("\nno standable surface found: no walk")
  os.exit(0)
end

-- A tour of surfaces: from where we stand, the nearest reachable node standing on
-- a block type not visited yet, stairs and slabs first (up to 7), then back to
-- the start.
local PREFER = { "stairs", "slab%[type=bottom", "carpet", "" }
local route, visited_names, here = { start }, { [start.name or "?"] = true }, start
for _ = 1, 7 do
  local parent, order = bfs(here)
  local goal
  for _, pattern in ipairs(PREFER) do
    for _, n in ipairs(order) do
      if n.name and not visited_names[n.name] and n.name:find(pattern) then goal = n break end
    end
    if goal then break end
  end
  if not goal then break end
  visited_names[goal.name] = true
  local p = path_to(parent, goal)
  for i = 2, #p do route[#route + 1] = p[i] end
  here = goal
end
local back = path_to((bfs(here)), start)
for i = 2, #back do route[#route + 1] = back[i] end

print(("\n%d standable surfaces; walking a route of %d waypoints from the start at (%g, %g, %g)"):format(
  #all, #route - 1, start.x + 0.5, start.y, start.z + 0.5))

-- 4. Walk it ------------------------------------------------------------------------

local player = world:spawn{ x = start.x + 0.5, y = start.y, z = start.z + 0.5,
                            rules = bp.rules.beta173{ step_sink_fix = true } }
local REACH, PATIENCE = 0.3, 200
local stood, jumps, reached, t = {}, 0, 0, 0
local function note_surface()
  -- on_ground comes from the vertical clip, which runs before the horizontal
  -- move: a player stepping off a ledge is on the ground over air for a tick.
  local under = player.on_ground and block_under(player:box())
  if not under then return end
  local last_stood = stood[#stood]
  if not last_stood or last_stood.name ~= under or last_stood.y ~= player.y then
    stood[#stood + 1] = { name = under, y = player.y, tick = t }
  end
end

for i = 2, #route do
  local wp, prev = route[i], route[i - 1]
  local wx, wz = wp.x + 0.5, wp.z + 0.5
  local nxt = route[i + 1]
  -- Full speed through straight runs; slow down before a turn or a drop.
  local straight = nxt and (nxt.x - wp.x == wp.x - prev.x) and (nxt.z - wp.z == wp.z - prev.z)
  local waited = 0
  while true do
    local dx, dz = wx - player.x, wz - player.z
    local dist = math.sqrt(dx * dx + dz * dz)
    if dist < REACH and (player.on_ground or wp.y < prev.y) then break end
    if waited >= PATIENCE then break end
    player.yaw = math.deg(math.atan(-dx, dz)) -- yaw 0 faces +Z, 90 faces -X
    player.forward = straight and 1 or math.max(0.25, math.min(1, dist * 1.5))
    -- Jump when a wall stops us, or when the next surface is more than a step up.
    player.jumping = player.on_ground and (player.collided_horizontally or
      (wp.y - player.y > 0.5 and dist < 1.2))
    if player.jumping then jumps = jumps + 1 end
    world:step()
    t = t + 1
    waited = waited + 1
    note_surface()
  end
  local ok = waited < PATIENCE
  reached = reached + (ok and 1 or 0)
  if not ok then
    print(("  waypoint %d (%g, %g, %g) not reached after %d ticks; at (%.3f, %.3f, %.3f)"):format(
      i, wx, wp.y, wz, PATIENCE, player.x, player.y, player.z))
  end
end
player.forward, player.jumping = 0, false
for _ = 1, 20 do world:step(); t = t + 1 end
note_surface()

print(("reached %d of %d waypoints in %d ticks (%.1f s of game time), %d jumps"):format(
  reached, #route - 1, t, t / 20, jumps))
print("route (waypoint: column centre, surface height, block under):")
for i, n in ipairs(route) do
  if i == 1 or i == #route or n.y ~= route[i - 1].y or n.name ~= route[i - 1].name then
    print(("  %3d  (%6.1f, %8.4f, %6.1f)  %s"):format(i, n.x + 0.5, n.y, n.z + 0.5, n.name or "?"))
  end
end
print("surfaces stood on, in order (tick: height, block):")
for _, s in ipairs(stood) do
  print(("  %5d: %8.4f  %s"):format(s.tick, s.y, s.name))
end
print(("final position (%.4f, %.4f, %.4f); overlapping boxes: %d"):format(
  player.x, player.y, player.z, #world:boxes_in(player:box())))
