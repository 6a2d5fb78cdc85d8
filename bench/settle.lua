--- The settle scene of `make bench` (issue 33): n mobs with push = "separate" walk
-- for `walk` ticks in a side x side walled pen (random headings from a fixed LCG),
-- then stand still for `rest` ticks. Returns the worst circle overlap after the
-- rest (blocks, as push_separate defines it: (w1 + w2)/2 - centre distance, for
-- pairs whose boxes overlap), the number of pairs over 0.05, and checks made
-- during the walk (the largest speed, whether any box entered a block).
-- Used by bench/crowd.lua and spec/push_settle_spec.lua.
local M = {}

--- A deterministic LCG (no math.random: the same crowd on every run and every Lua;
-- seed * 1103515245 in two parts, each exact on doubles): lcg(seed)() -> [0, 1).
local function lcg(seed)
  return function()
    seed = ((seed * 16838) % 32768 * 65536 + seed * 20077 + 12345) % 2147483648
    return seed / 2147483648
  end
end
M.lcg = lcg

--- A walled pen: a stone floor at y = 63 and 2-high walls around [0, side]^2.
function M.pen(world, side)
  local stone = world:define_block{ name = "stone" }
  world:fill(-1, 63, -1, side, 63, side, stone)
  world:fill(-1, 64, -1, side, 65, -1, stone)
  world:fill(-1, 64, side, side, 65, side, stone)
  world:fill(-1, 64, -1, -1, 65, side, stone)
  world:fill(side, 64, -1, side, 65, side, stone)
end

--- Worst circle overlap over all pairs whose boxes overlap, and the pairs over `tol`.
function M.overlap(world, tol)
  local worst, over = 0, 0
  local ents = world:entities()
  local rank = {}
  for i, e in ipairs(ents) do rank[e] = i end
  for i, e in ipairs(ents) do
    for _, o in ipairs(world:query(e:box())) do
      if rank[o] > i then
        local d = math.sqrt((e.x - o.x) ^ 2 + (e.z - o.z) ^ 2)
        local ov = (e.width + o.width) / 2 - d
        if ov > worst then worst = ov end
        if ov > tol then over = over + 1 end
      end
    end
  end
  return worst, over
end

--- Run the scene. opts: n, side, walk (ticks), rest (ticks), seed, rules (table of
-- extra rule fields), model ("beta173", the default, or "mccpp"), check (true: check
-- speeds and blocks every tick).
function M.run(opts)
  local bp = require "blockphys"
  local world = bp.World()
  local side = opts.side
  M.pen(world, side)
  local rnd = lcg(opts.seed or 1)
  local fields = { push = "separate" }
  for k, v in pairs(opts.rules or {}) do fields[k] = v end
  local rules = bp.rules[opts.model or "beta173"](fields)
  local mobs = {}
  for i = 1, opts.n do
    local e = world:spawn{ x = 0.3 + rnd() * (side - 0.6), y = 64, z = 0.3 + rnd() * (side - 0.6),
                           rules = rules, yaw = rnd() * 360 }
    e.forward = 1
    mobs[i] = e
  end
  local res = { max_speed = 0, inside = 0 }
  local cap = rules.max_push_speed
  local function check()
    for _, e in ipairs(mobs) do
      local s = math.sqrt(e.vx * e.vx + e.vz * e.vz)
      if s > res.max_speed then res.max_speed = s end
      local b = e:box()
      local x0, y0, z0, x1, z1 = b.x1, b.y1, b.z1, b.x2, b.z2
      if x0 < -1e-9 or z0 < -1e-9 or x1 > side + 1e-9 or z1 > side + 1e-9 or y0 < 64 - 1e-9 then
        res.inside = res.inside + 1
      end
    end
  end
  for _ = 1, opts.walk do
    world:step()
    if opts.check then check() end
  end
  for _, e in ipairs(mobs) do e.forward = 0 end
  for _ = 1, opts.rest do
    world:step()
    if opts.check then check() end
  end
  res.cap = cap
  res.overlap, res.pairs = M.overlap(world, 0.05)
  local h = 0
  for _, e in ipairs(mobs) do
    h = (h * 31 + math.floor(e.x * 1e6) + math.floor(e.z * 1e6) * 7) % 2147483647
  end
  res.digest = h
  world:destroy()
  return res
end

return M
