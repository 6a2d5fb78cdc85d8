--- The attack suite's misuse: every hostile action run from every place where Lua
-- code runs while the library holds a world (rules hooks, entity filters, an error
-- object's __tostring, a finalizer inside a method, a shape table's block_def inside
-- paste), for every operation that reaches that place. Each combination must leave
-- the process alive, give a string error or none, and leave nothing half-applied: an
-- operation that raised leaves a live world as it was (entities, blocks, types,
-- colliders), unless the action itself ran outside the lock (a finalizer between two
-- calls).
--
-- Source: our own (after spec/gc_misuse_spec.lua and spec/fuzz_spec.lua).

local bp = require "blockphys"
local H = require "harness"

local check, is_message = H.check, H.is_message
local format = string.format

local misuse = {}

local TINY = { width = 2, height = 1, length = 1, cell_bytes = 1, blocks = "\1\2",
               palette = { "minecraft:air", "minecraft:stone", "minecraft:oak_fence" } }

-- A world with a floor, a block type, a collider and `n` entities standing on it.
local function scene(n, spawn_args)
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-4, -1, -4, 4, -1, 4, "stone")
  w:add_collider(bp.Collider(3, 0, 3, 4, 2, 4))
  local ents = {}
  for i = 1, n do
    local a = {}
    for k, v in pairs(spawn_args or {}) do a[k] = v end
    a.x, a.y, a.z = (i % 3) * 0.4, 0, 0
    ents[i] = w:spawn(a)
  end
  return w, ents
end

-- What a world holds, for "nothing half-applied"; "destroyed" for a dead one.
local function snapshot_now(w)
  local st = w:stats()
  local parts = { st.blocks, st.chunks, st.block_types, st.entities, st.colliders }
  for _, e in ipairs(w:entities()) do
    parts[#parts + 1] = format("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", e.x, e.y, e.z, e.vx, e.vy, e.vz)
  end
  return table.concat(parts, ";")
end

local function snapshot(w)
  local ok, s = pcall(snapshot_now, w) -- a finalizer may destroy the world meanwhile
  return ok and s or "destroyed"
end

-- The hostile actions, each given the world and an entity; run under pcall by the
-- place, so that a refused one (a locked world) does not end the callback.
local ACTIONS = {
  gc = function(w) debug.getmetatable(w).__gc(w) end,
  destroy = function(w) w:destroy() end,
  spawn = function(w) w:spawn{ x = 1, y = 3, z = 1 } end,
  remove = function(w, e) w:remove(e) end,
  set_block = function(w) w:set_block(0, 5, 0, "stone") end,
  fill = function(w) w:fill(-2, 6, -2, 2, 6, 2, "stone") end,
  define = function(w) w:define_block{ name = "x" .. tostring(math.random(1e9)) } end,
  paste = function(w) w:paste(TINY, 0, 8, 0) end,
  step = function(w) w:step() end,
  move = function(_, e) e:move(0.5, 0, 0.5) end,
  teleport = function(_, e) e:teleport(1, 4, 1) end,
  collect = function() collectgarbage() end,
  add_collider = function(w) w:add_collider(bp.Collider(0, 9, 0, 1, 10, 1)) end,
}
local ACTION_NAMES = {}
for k in pairs(ACTIONS) do ACTION_NAMES[#ACTION_NAMES + 1] = k end
table.sort(ACTION_NAMES)

-- Runs the action; records in `ran` whether one succeeded (then it, not the
-- operation, may have changed the world).
local ran, reached = false, 0
local function try(act, w, e)
  reached = reached + 1
  if pcall(act, w, e) then ran = true end
end

-- Checks the outcome of an operation: an error is a string, and an operation that
-- raised left a live world as it was (unless `free`: the action ran unlocked).
local function outcome(w, before, ok, err, free)
  if ok then return end
  check(is_message(err), "raised a %s: %s", type(err), tostring(err))
  local after = snapshot(w)
  if after ~= "destroyed" and not free then
    check(after == before or ran, "raised (%s) and changed the world", err)
  end
end

-- The places: each sets up a world whose operation `op` reaches the callback `cb`
-- (which runs the action), runs it and checks the outcome.
local PLACES = {}

PLACES["rules hook jump"] = function(act, raise)
  local w, e
  local function cb() try(act, w, e); if raise then error("hostile hook") end end
  w = scene(0)
  e = w:spawn{ x = 0, y = 0, z = 0, rules = bp.rules.beta173{ jump = cb } }
  w:step() -- lands: the next step jumps
  e.jumping = true
  local before = snapshot(w)
  local ok, err = pcall(w.step, w)
  outcome(w, before, ok, err)
end

PLACES["rules hook heading"] = function(act, raise)
  local w, e
  local function cb() try(act, w, e); if raise then error("hostile hook") end; return 0, 0 end
  w = scene(0)
  e = w:spawn{ x = 0, y = 0, z = 0, rules = bp.rules.mccpp{ heading = cb } }
  e.forward = 1
  local before = snapshot(w)
  local ok, err = pcall(w.step, w, 0.05)
  outcome(w, before, ok, err)
end

for _, op in ipairs{ "step", "move", "move_swept" } do
  PLACES["entity filter in " .. op] = function(act, raise)
    local w, ents
    local function cb() try(act, w, ents[2]); if raise then error("hostile filter") end; return true end
    w, ents = scene(3, { solid = true })
    ents[1].filter = cb
    local before = snapshot(w)
    local ok, err
    if op == "step" then ok, err = pcall(w.step, w)
    else ok, err = pcall(ents[1][op], ents[1], 1, 0, 0) end
    outcome(w, before, ok, err)
  end
end

PLACES["error object's __tostring"] = function(act)
  local w, e
  local obj = setmetatable({}, { __tostring = function() try(act, w, e); return "hostile object" end })
  w = scene(0)
  e = w:spawn{ x = 0, y = 0, z = 0, rules = bp.rules.beta173{ jump = function() error(obj) end } }
  w:step()
  e.jumping = true
  local before = snapshot(w)
  local ok, err = pcall(w.step, w)
  check(not ok, "a raising hook's step returned")
  outcome(w, before, ok, err)
end

PLACES["block_def inside paste"] = function(act, raise)
  local w, ents
  local shapes = { block_def = function(state)
    try(act, w, ents[1])
    if raise then error("hostile block_def") end
    return bp.minecraft.block_def(state)
  end }
  w, ents = scene(1)
  local ok, err = pcall(w.paste, w, TINY, 0, 8, 0, shapes)
  -- paste runs block_def before the world changes: the action itself is unlocked
  -- here, so only the error's type is checked
  outcome(w, nil, ok, err, true)
end

for _, op in ipairs{ "entities", "query", "stats", "boxes_in", "step", "raycast" } do
  PLACES["finalizer inside " .. op] = function(act)
    local w, ents = scene(40)
    local calls = {
      entities = function() return w:entities() end,
      query = function() return w:query(bp.Collider(-9, -9, -9, 9, 9, 9)) end,
      stats = function() return w:stats() end,
      boxes_in = function() return w:boxes_in(bp.Collider(-4, -1, -4, 4, 1, 4)) end,
      step = function() return w:step() end,
      raycast = function() return w:raycast(0.5, 5, 0.5, 0, -1, 0, 10) end,
    }
    for _ = 1, 30 do
      for _ = 1, 10 do setmetatable({}, { __gc = function() try(act, w, ents[1]) end }) end
      local ok, err = pcall(calls[op])
      outcome(w, nil, ok, err, true) -- the finalizer may run between calls, unlocked
      if snapshot(w) == "destroyed" then break end
    end
  end
end

--- The cases of the misuse group: one per place, every action, raising and not.
function misuse.cases(mode)
  local rounds = mode == "full" and 20 or 2
  local c = {}
  local places = {}
  for name in pairs(PLACES) do places[#places + 1] = name end
  table.sort(places)
  for _, place in ipairs(places) do
    c[#c + 1] = { name = place, seconds = mode == "full" and 60 or 6, kb = 64 * 1024, kept_kb = 2048,
      run = function()
        reached = 0
        for _ = 1, rounds do
          for _, a in ipairs(ACTION_NAMES) do
            for _, raise in ipairs{ false, true } do
              ran = false
              PLACES[place](ACTIONS[a], raise)
            end
          end
        end
        collectgarbage()
        check(reached > 0, "no hostile action ran")
      end }
  end
  -- __gc by hand twice, then every method of the dead world: each raises the same string
  c[#c + 1] = { name = "methods of a world whose __gc ran by hand", seconds = 2, kb = 16 * 1024,
    run = function()
      local w = scene(2)
      local mt = debug.getmetatable(w)
      check(type(mt.__gc) == "function", "no __gc")
      mt.__gc(w)
      mt.__gc(w)
      for name, f in pairs(require("blockphys.core").World_methods) do
        if type(f) == "function" and name:sub(1, 1) ~= "_" and name ~= "destroy" then
          local ok, err = pcall(f, w, 0, 0, 0, 1, 1, 1, 1)
          check(not ok and is_message(err), "%s on a dead world: %s", name, tostring(err))
        end
      end
      check(tostring(w) == "blockphys.World (destroyed)", "tostring: %s", tostring(w))
    end }
  return c
end

return misuse
