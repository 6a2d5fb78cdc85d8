-- luacheck: globals fail_after
-- Run by spec/lua_oom_spec.lua inside lua_oom_host (which gives `fail_after`): each
-- case's call is made with 0, 1, 2, ... allocations allowed until it succeeds. After
-- every failure the world must be as before the call and still work: a step, a block
-- write and a spawn succeed. Prints one line per case, "case <name> failures <n>",
-- then "bad <count>" (and each problem above it).
local bp = require "blockphys"

local MAX_TRIES = 400
local bad = 0

local function problem(name, n, what)
  bad = bad + 1
  print(("problem %s at %d: %s"):format(name, n, what))
end

-- What a call must leave as it was when it fails.
local function snapshot(w)
  local st = w:stats()
  local t = { st.blocks, st.chunks, st.entities, st.colliders, st.block_types,
              #w:entities(), w:get_block(0, 0, 0), w:get_block(40, 5, 40) }
  for _, e in ipairs(w:entities()) do
    local r = e.rules
    for _, v in ipairs{ e.x, e.y, e.z, e.vx, e.vy, e.vz, e.on_ground, e.fall_distance,
                        r.model, r.jump ~= nil, r.heading ~= nil, e.filter ~= nil, e.solid } do
      t[#t + 1] = v
    end
  end
  return t
end

local function same(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i] ~= b[i] then return false end
  end
  return true
end

local function hook() end

local function world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-8, -1, -8, 8, -1, 8, "stone")
  -- 8 slots: the entity tables' array parts are full, so a 9th slot grows them
  for i = 1, 8 do
    w:spawn{ x = i - 4.5, y = 0, z = 0.5, rules = bp.rules.beta173{ jump = hook } }
  end
  w:remove(w:entities()[2]) -- a free slot for spawns to reuse
  for _, e in ipairs(w:entities()) do e.jumping = true end
  return w
end

local cases = {
  { "spawn", function(w) return w:spawn{ x = 0.5, y = 0, z = 3.5 } end },
  { "spawn with hooks and a filter", function(w)
      return w:spawn{ x = 0.5, y = 0, z = 3.5, filter = function() return true end,
                      rules = bp.rules.beta173{ jump = hook, heading = function() return 0, 0 end } }
    end },
  { "spawn into a new slot (the tables grow)", function(w)
      return w:spawn{ x = 0.5, y = 0, z = 3.5, rules = bp.rules.mccpp{ jump = hook } }
    end, function(w) w:spawn{ x = 2.5, y = 0, z = 3.5 } end }, -- takes the free slot
  { "remove", function(w) w:remove(w:entities()[1]) end },
  { "rules write", function(w)
      w:entities()[1].rules = bp.rules.mccpp{ heading = function() return 0, 0 end }
    end },
  { "rules field write", function(w) w:entities()[1].rules.jump = nil end },
  { "filter write", function(w) w:entities()[1].filter = function() return true end end },
  { "define_block", function(w) w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } } end },
  { "set_block in a new chunk", function(w) w:set_block(40, 5, 40, "stone") end },
  { "fill", function(w) w:fill(30, 0, 30, 50, 8, 50, "stone") end },
  { "add_collider", function(w) w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1)) end },
  { "step with hooks", function(w) w:step() end },
  { "query", function(w) return w:query(bp.Collider(-10, -10, -10, 10, 10, 10)) end },
  { "boxes_in", function(w) return w:boxes_in(bp.Collider(-3, -2, -3, 3, 2, 3)) end },
}

for _, case in ipairs(cases) do
  local name, call, setup = case[1], case[2], case[3]
  local failures, done = 0, false
  for n = 0, MAX_TRIES do
    local w = world()
    if setup then setup(w) end
    local before = snapshot(w)
    collectgarbage()
    collectgarbage("stop") -- no finalizer runs inside the call: the count is exact
    local ok, err = fail_after(n, call, w)
    collectgarbage("restart")
    if ok then
      done = true
      break
    end
    failures = failures + 1
    if not tostring(err):find("not enough memory", 1, true) then
      problem(name, n, "raised " .. tostring(err))
    end
    if not same(before, snapshot(w)) then problem(name, n, "changed the world") end
    local ok2, err2 = pcall(function()
      for _ = 1, 3 do w:step() end
      w:set_block(0, 3, 0, "stone")
      w:remove(w:spawn{ x = 0.5, y = 5, z = 0.5 })
      w:step()
    end)
    if not ok2 then problem(name, n, "left a broken world: " .. tostring(err2)) end
  end
  if not done then problem(name, MAX_TRIES, "never succeeded") end
  print(("case %s failures %d"):format(name, failures))
end
print(("bad %d"):format(bad))
