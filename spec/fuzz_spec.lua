-- luacheck: std +busted
-- Seeded adversarial fuzzing of the whole Lua API: every public function, method and
-- metamethod is called with argument values drawn from a hostile pool (NaN, inf,
-- int32/int64 edges, numeric strings, cyclic tables, tables whose metamethods raise or
-- call back into the world, userdata of the wrong kind, removed entities, destroyed
-- worlds, coroutines), with hooks and filters that raise, yield, return garbage or
-- re-enter the world, and with finalizers that run world methods in the middle of
-- calls. Each call runs under pcall; the spec asserts that:
--   * every error is a string naming the function, an argument or a documented
--     message (never a userdata, a table or nil);
--   * a call that raised without running any hostile callback changed nothing:
--     the world's stats and every entity's state are as before; now and then the
--     world's memory runs out in the call (World:_fail_alloc), and a call that then
--     raises "not enough memory" must have changed nothing either (paste excepted,
--     as documented);
--   * the process survives (under `make sanitize`, with no ASan/UBSan report).
-- Deterministic: a fixed seed and our own generator (no math.random state shared
-- with other specs).
local bp = require "blockphys"
local C = require "helpers.compat"

-- xorshift32: deterministic whatever math.random's state (and on every Lua:
-- helpers/compat.lua).
local function rng(seed)
  local xorshift32 = C.xorshift32
  local s = seed % 4294967296
  if s == 0 then s = 1 end
  return function(n)
    s = xorshift32(s)
    return n and (s % n) + 1 or s / 4294967296.0
  end
end

-- Documented message shapes: Lua's argument errors and the binding's own prefixes.
local MESSAGE_PATTERNS = {
  "bad argument", "calling '", "define_block:", "spawn:", "world:step", "world is locked",
  "fill:", "boxes_in:", "sweep:", "query", "entity field", "entity has no field",
  "entity.rules", "unknown rule", "rule '[%w_]+' belongs to model", "bp%.rules%.",
  "not enough memory", "size limit",
  "HOSTILE", "paste", "rules must be a table", "entity has been removed",
  "entity belongs to", "world has been destroyed", "move:", "move_swept:", "knockback:",
  "attempt to yield", "value %(upvalue 'e'%)", "schematic",
  "upvalue 'e' %(a %w+ value%)", -- Lua 5.1's and LuaJIT's wording of the line above "C stack overflow", "stack overflow",
  "blockphys%.Collider is read%-only",
  "world has no field", "world field '", -- a World drawn as e: its fields are the clock's
  "table index is NaN", -- Lua's own, when "entity write" draws a plain table as e, NaN as k
}

local function documented(msg)
  for _, p in ipairs(MESSAGE_PATTERNS) do
    if msg:find(p) then return true end
  end
  return false
end

-- NaN-aware deep equality of plain values and tables.
local function same(a, b)
  if a ~= a and b ~= b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do
    if not same(v, b[k]) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

local ENTITY_FIELDS = { "x", "y", "z", "vx", "vy", "vz", "on_ground", "collided_horizontally",
  "collided_vertically", "in_water", "in_lava", "fall_distance", "forward", "strafe", "yaw",
  "jumping", "sneaking", "flying", "solid", "stable", "group", "mask", "width", "height",
  "y_size", "step_offset" }

local function entity_state(e)
  local s = {}
  for _, k in ipairs(ENTITY_FIELDS) do s[k] = e[k] end
  local r = {}
  for k, v in pairs(bp.rules.copy(e.rules)) do r[k] = v end -- hooks included
  s.rules = r
  s.filter = e.filter
  return s
end

local function world_state_now(w)
  local ok, stats = pcall(w.stats, w)
  if not ok then return "destroyed" end
  local ents = {}
  for i, e in ipairs(w:entities()) do ents[i] = entity_state(e) end
  stats.bytes = nil -- memory held (scratch arrays grow and stay): not state
  return { stats = stats, entities = ents, block = w:get_block(0, 0, 0) }
end

-- The "gc" action leaves finalizers that act on the world whenever the collector
-- reaches them: not while the harness takes its snapshot, which it would change.
local function world_state(w)
  local running = C.gc_isrunning()
  C.gc_stop()
  local ok, state = pcall(world_state_now, w)
  if running then C.gc_restart() end
  if not ok then error(state, 0) end
  return state
end

local function run_fuzz(seed, ncalls)
  local R = rng(seed)
  local S = { hostile = 0, calls = 0, errors = 0, starved = 0, bad = {} }
  local W, OTHER -- the world under test and another world
  local ENTS = {}
  local DEAD = {} -- removed entities and entities of destroyed worlds

  local function pick(t) return t[R(#t)] end
  local function mark() S.hostile = S.hostile + 1 end

  local function new_world()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
    w:define_block{ name = "water", boxes = {}, liquid = "water" }
    w:define_block{ name = "ladder", boxes = { { 0, 0, 0.875, 1, 1, 1 } }, climbable = true }
    w:define_block{ name = "soul_sand", boxes = { { 0, 0, 0, 1, 0.875, 1 } },
                    velocity_factor = 0.4 }
    w:define_block{ name = "cobweb", boxes = {}, web = true }
    w:fill(-6, 0, -6, 6, 0, 6, "stone")
    w:set_block(2, 1, 2, "slab")
    w:set_block(-2, 1, -2, "water")
    w:set_block(-3, 1, 2, "soul_sand")
    w:set_block(1, 1, -3, "cobweb")
    w:add_collider(bp.Collider(3, 1, 3, 4, 3, 4))
    return w
  end

  local function cyclic()
    local t = {}
    t.self, t[1] = t, t
    return t
  end

  -- Functions and metatables that misbehave; the ones that touch the world mark
  -- the call as hostile (its effects on the world are then not checked).
  local hostile_fns
  local function raising_index()
    return setmetatable({}, { __index = function() error("HOSTILE __index") end })
  end
  local function reentrant_table()
    return setmetatable({}, { __index = function(_, k)
      mark()
      local act = R(6)
      if act == 1 then pcall(W.destroy, W)
      elseif act == 2 then pcall(W.spawn, W, { x = 0.5, y = 1, z = 0.5 })
      elseif act == 3 and ENTS[1] then pcall(W.remove, W, ENTS[R(#ENTS)])
      elseif act == 4 then collectgarbage()
      elseif act == 5 then pcall(W.define_block, W, { name = "b" .. R(1000) })
      end
      if k == "x" or k == "y" or k == "z" then return 0.5 end
      return nil
    end, __len = function() mark(); pcall(W.destroy, W); return 1 end })
  end
  local function bad_tostring_error()
    error(setmetatable({}, { __tostring = function() error("HOSTILE __tostring") end }))
  end

  hostile_fns = {
    function() error("HOSTILE plain") end,
    function() error({ "HOSTILE table" }) end,
    bad_tostring_error,
    function() error(setmetatable({}, { __tostring = function() return 42 end })) end,
    function() coroutine.yield(1) end,
    function() return 0 / 0, math.huge end,
    function() return "1", "2" end,
    function() return {}, nil end,
    function() return 0.01, -0.01 end,
    function() return true end,
    function() mark(); pcall(W.spawn, W, { x = 0, y = 1, z = 0 }); return 0, 0 end,
    function(e) mark(); pcall(W.remove, W, e); return 0, 0 end,
    function() mark(); pcall(W.step, W); return 0, 0 end,
    function() mark(); pcall(W.destroy, W); return 0, 0 end,
    function() mark(); collectgarbage(); return 0, 0 end,
    function(e) mark(); pcall(function() e:move(0.1, 0, 0.1) end); return 0, 0 end,
    function(e) mark(); pcall(function() e:move_swept(0, -0.1, 0) end); return 0, 0 end,
    function(e) mark(); pcall(function() e:teleport(1, 3, 1) end); return 0, 0 end,
    function(e) mark(); pcall(function() e.rules.jump = nil end); error("HOSTILE after") end,
    function(e) mark(); pcall(function() e.filter = nil end); error("HOSTILE after") end,
    function(e) mark(); pcall(function() e.solid = not e.solid end); return 0, 0 end,
    function(e) mark(); pcall(function() e.rules = bp.rules.mccpp() end); return 0, 0 end,
    function(_, o) mark()
      if o then pcall(function() o:move(0, 0.5, 0) end) end
      return true
    end,
    function() mark(); pcall(function() OTHER:step() end); return 0, 0 end,
    function() mark(); local co = coroutine.wrap(function() W:step() end); pcall(co); return 0, 0 end,
    function(e) mark()
      local co = coroutine.wrap(function() e:move(0.2, 0, 0) end)
      pcall(co)
      return false
    end,
    function() return nil end,
  }

  local function hostile_rules()
    local o = {}
    local model = R(2) == 1 and "beta173" or "mccpp"
    local keys = { "jump_impulse", "gravity", "step_height", "resolver", "push", "friction",
                   "passes", "walk_speed", "max_push_speed", "push_radius", "model", "nope" }
    for _ = 1, R(3) - 1 do
      local k = pick(keys)
      local vals = { 0, 0.5, -1, 1e308, 0 / 0, "axis", "swept", "beta173", "separate", false,
                     { 1, 2, 3 }, { 0.5, 0.5, 0.5 }, 3, 2 ^ 31, "mccpp" }
      o[k] = pick(vals)
    end
    if R(2) == 1 then o.heading = pick(hostile_fns) end
    if R(2) == 1 then o.jump = pick(hostile_fns) end
    local ok, r = pcall(bp.rules[model], o)
    if ok then return r end
    return bp.rules[model]{ heading = pick(hostile_fns), jump = pick(hostile_fns) }
  end

  local function live_entity()
    if #ENTS == 0 then return nil end
    return ENTS[R(#ENTS)]
  end

  local LONG = string.rep("x", 5000)
  local values
  values = {
    function() return nil end, function() return true end, function() return false end,
    function() return 0 / 0 end, function() return math.huge end, function() return -math.huge end,
    function() return -0.0 end, function() return 1e308 end, function() return -1e308 end,
    function() return 2 ^ 53 end, function() return 2 ^ 63 end,
    function() return C.MAXINT end, function() return C.MININT end,
    function() return 2147483647 end, function() return -2147483648 end,
    function() return 2147483648 end, function() return 5e-324 end,
    function() return "1" end, function() return "" end, function() return LONG end,
    function() return "stone" end, function() return "beta173" end, function() return "%s%d" end,
    function() return {} end, function() return { { {} } } end, cyclic,
    raising_index, reentrant_table,
    function() return { 0, 0, 0 } end, function() return { 1, 1, 1, 2, 2, 2 } end,
    function() return pick(hostile_fns) end, function() return print end,
    function() return bp.Collider(0, 0, 0, 1, 1, 1) end,
    function() return bp.Collider(-1e300, -1e300, -1e300, 1e300, 1e300, 1e300) end,
    function() return live_entity() end, function() return DEAD[1] end,
    function() return OTHER:entities()[1] end, function() return OTHER end, function() return W end,
    function() local d = bp.World(); d:destroy(); return d end,
    function() return coroutine.create(function(...) return print(...) end) end,
    function() local e = live_entity(); return e and e.rules end,
    function() return hostile_rules() end,
    function() return 0 end, function() return 1 end, function() return -1 end,
    function() return 0.5 end, function() return 3 end, function() return 1024 end,
    function() return 1025 end,
    function() return (R() - 0.5) * 20 end, function() return R(17) - 9 end,
  }

  local function value() return values[R(#values)]() end
  local function number()
    if R(4) == 1 then return value() end
    return pick({ (R() - 0.5) * 10, R(9) - 5, 0.5, 1, 0 })
  end

  local function args(n, gen)
    local a = {}
    for i = 1, n do a[i] = (gen or value)() end
    return a, n
  end

  local function spawn_def()
    local d = { x = number(), y = number(), z = number() }
    local extra = { "width", "height", "rules", "solid", "group", "mask", "yaw", "vx", "vy",
                    "vz", "filter", "bogus" }
    for _ = 1, R(4) - 1 do
      local k = pick(extra)
      if k == "rules" then d[k] = R(3) == 1 and value() or hostile_rules()
      elseif k == "filter" then d[k] = R(4) == 1 and value() or pick(hostile_fns)
      else d[k] = R(2) == 1 and value() or number() end
    end
    if R(10) == 1 then setmetatable(d, getmetatable(reentrant_table())) end
    return d
  end

  local function block_def()
    local d = { name = R(3) == 1 and value() or ("t" .. R(200)) }
    if R(2) == 1 then d.boxes = R(2) == 1 and value() or { { number(), number(), number(),
                                                            number(), number(), number() } } end
    if R(3) == 1 then d.slipperiness = value() end
    if R(3) == 1 then d.liquid = value() end
    if R(3) == 1 then d.climbable = value() end
    if R(4) == 1 then d.velocity_factor = value() end
    if R(4) == 1 then d.web = value() end
    if R(10) == 1 then d.bogus = 1 end
    return d
  end

  -- Each target: name, whether it may change the world, and a function that makes
  -- the call (returning the pcall results).
  local wm = bp.core.World_methods
  local function self_or(x)
    if R(12) == 1 then return value() end
    return x
  end
  local function call(f, self, ...) return pcall(f, self_or(self), ...) end
  local function nargs() return R(9) - 1 end

  local targets = {
    { "Collider", false, function() return pcall(bp.Collider, C.unpack_table(args(R(8) - 1, number))) end },
    { "Collider:method", false, function()
      local c = bp.Collider(0, 0, 0, 1, 2, 1)
      local m = pick({ "unpack", "offset", "extend", "expand", "overlaps", "clip_x", "clip_y",
                       "clip_z", "sweep" })
      local a = args(R(6) - 1, function() return R(2) == 1 and value() or number() end)
      return pcall(c[m], self_or(c), C.unpack_table(a))
    end },
    { "Collider meta", false, function()
      local c = bp.Collider(0, 0, 0, 1, 1, 1)
      local mt = debug.getmetatable(c)
      local m = pick({ "__add", "__band", "__eq", "__tostring", "__index" })
      return pcall(mt[m], self_or(c), value())
    end },
    { "Collider ops", false, function()
      local c = bp.Collider(0, 0, 0, 1, 1, 1)
      local op = R(4)
      local v = R(2) == 1 and { number(), number(), number() } or value()
      return pcall(function()
        if op == 1 then return c + v elseif op == 2 then return (C.band_op or c.overlaps)(c, v)
        elseif op == 3 then return c == v else return c[v] end
      end)
    end },
    { "define_block", true, function() return call(wm.define_block, W, R(4) == 1 and value() or block_def()) end },
    { "set_block", true, function() return call(wm.set_block, W, C.unpack_table(args(nargs(), number))) end },
    { "set_block name", true, function()
      return call(wm.set_block, W, number(), number(), number(), R(2) == 1 and "stone" or value())
    end },
    { "get_block", false, function() return call(wm.get_block, W, C.unpack_table(args(nargs(), number))) end },
    { "fill", true, function()
      local a = args(6, number)
      a[7] = R(2) == 1 and pick({ "stone", "air", 1, 0 }) or value()
      return call(wm.fill, W, C.unpack_table(a, 1, 7))
    end },
    { "boxes_in", false, function() return call(wm.boxes_in, W, value()) end },
    { "boxes_in collider", false, function()
      return call(wm.boxes_in, W, bp.Collider(-2, -1, -2, 2 + R(4), 2, 2))
    end },
    { "add_collider", true, function() return call(wm.add_collider, W, value()) end },
    { "remove_collider", true, function() return call(wm.remove_collider, W, value()) end },
    { "stats", false, function() return call(wm.stats, W, value()) end },
    { "block_info", false, function() return call(wm.block_info, W, value()) end },
    { "block_id", false, function() return call(wm.block_id, W, value()) end },
    { "spawn", true, function() return call(wm.spawn, W, R(5) == 1 and value() or spawn_def()) end },
    { "remove", true, function() return call(wm.remove, W, value()) end },
    { "entities", false, function() return call(wm.entities, W, value()) end },
    { "step", true, function() return call(wm.step, W, R(2) == 1 and nil or value()) end },
    { "step x3", false, function() -- not one call: a later step may fail after others
      for _ = 1, 3 do
        local ok, err = pcall(wm.step, W)
        if not ok then return ok, err end
      end
      return true
    end },
    { "step in coroutine", true, function()
      local co = coroutine.create(function() return W:step() end)
      return coroutine.resume(co)
    end },
    { "query", false, function() return call(wm.query, W, value()) end },
    { "raycast", false, function() return call(wm.raycast, W, C.unpack_table(args(7, number))) end },
    { "raycast_entities", false, function()
      local a = args(8, number)
      a[8] = R(2) == 1 and live_entity() or value()
      return call(wm.raycast_entities, W, C.unpack_table(a, 1, 8))
    end },
    { "sweep", false, function()
      return call(wm.sweep, W, R(3) == 1 and value() or bp.Collider(0, 1, 0, 0.6, 2.8, 0.6),
                  number(), number(), number())
    end },
    { "paste", true, function() return call(wm.paste, W, value(), number(), number(), number(), value()) end },
    { "destroy", true, function()
      if R(8) ~= 1 then return true end
      return call(wm.destroy, W, value())
    end },
    { "world meta", false, function()
      local mt = debug.getmetatable(W)
      return pcall(mt.__tostring, self_or(W), value())
    end },
    { "entity read", false, function()
      local e = R(6) == 1 and value() or live_entity()
      local k = R(4) == 1 and value() or pick(ENTITY_FIELDS)
      return pcall(function() return e[k] end)
    end },
    { "entity write", true, function()
      local e = R(6) == 1 and value() or live_entity()
      local k = R(4) == 1 and value() or pick({ "vx", "vy", "vz", "forward", "strafe", "yaw",
        "fall_distance", "jumping", "sneaking", "flying", "solid", "group", "mask", "rules",
        "filter", "x", "width", "on_ground", "bogus" })
      local v
      if k == "rules" then v = R(2) == 1 and hostile_rules() or value()
      elseif k == "filter" then v = R(2) == 1 and pick(hostile_fns) or value()
      else v = R(2) == 1 and number() or value() end
      return pcall(function() e[k] = v end)
    end },
    { "entity method", true, function()
      local e = live_entity()
      local m = pick({ "move", "move_swept", "teleport", "lerp", "box", "position", "velocity",
                       "valid", "knockback" })
      local f = e and e[m] or bp.core.World_methods.stats
      local self = R(6) == 1 and value() or e
      return pcall(f, self, C.unpack_table(args(R(5) - 1, number)))
    end },
    { "entity meta", false, function()
      local e = live_entity()
      if not e then return true end
      local mt = debug.getmetatable(e)
      local m = pick({ "__index", "__newindex", "__eq", "__tostring" })
      return pcall(mt[m], self_or(e), value(), value())
    end },
    { "rules view", true, function()
      local e = live_entity()
      if not e then return true end
      local view = e.rules
      local op = R(5)
      local k = R(3) == 1 and value() or pick({ "jump_impulse", "gravity", "model", "resolver",
        "push", "heading", "jump", "friction", "passes", "drag_fly", "nope" })
      return pcall(function()
        if op == 1 then return view[k]
        elseif op == 2 then view[k] = R(2) == 1 and number() or value()
        elseif op == 3 then for _ in C.pairs(view) do end
        elseif op == 4 then return bp.rules.copy(R(3) == 1 and value() or view)
        else return tostring(view) end
      end)
    end },
    { "rules view meta", true, function()
      local e = live_entity()
      if not e then return true end
      -- inside pcall: a pending "gc" finalizer may destroy the world meanwhile
      return pcall(function()
        local mt = debug.getmetatable(e.rules)
        local m = pick({ "__index", "__newindex", "__pairs", "__tostring" })
        return mt[m](self_or(e.rules), value(), value())
      end)
    end },
    { "rules presets", false, function()
      local which = pick({ "beta173", "mccpp" })
      local o = R(3) == 1 and value() or {}
      if type(o) == "table" and not getmetatable(o) then
        for _ = 1, R(3) do o[R(2) == 1 and R(1000) or pick({ "gravity", "jump_impulse", "model",
          "heading", "friction", "resolver", "push" })] = value() end
      end
      return pcall(bp.rules[which], o)
    end },
    { "rules table write", false, function()
      local r = bp.rules.beta173()
      return pcall(function() r[value() or "x"] = value() end)
    end },
    { "core functions", false, function()
      local f = pick({ "make_rules", "rules_defaults", "rules_copy" })
      return pcall(bp.core[f], value(), value())
    end },
    { "gc", false, function()
      -- A finalizer that runs world methods whenever the collector gets to it.
      local w = W
      C.finalizer(function()
        local act = R(5)
        if act == 1 then pcall(w.destroy, w)
        elseif act == 2 then pcall(w.spawn, w, { x = 1.5, y = 1, z = 1.5 })
        elseif act == 3 then pcall(w.define_block, w, { name = "gc" .. R(1000) })
        elseif act == 4 then pcall(w.boxes_in, w, bp.Collider(-3, 0, -3, 3, 2, 3))
        else pcall(w.add_collider, w, bp.Collider(0, 5, 0, 1, 6, 1)) end
      end)
      -- A full cycle runs it now: left pending, it could destroy the world later
      -- while the harness itself reads an entity (outside any pcall).
      collectgarbage()
      return true
    end },
    { "gc world with entities held", false, function()
      local w = new_world()
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      w = nil -- luacheck: ignore
      collectgarbage()
      e.vx = 0.1
      return pcall(function() e.world:step() end)
    end },
  }

  local function refresh()
    if not pcall(OTHER.stats, OTHER) then -- a call destroyed it (it is in the pool)
      OTHER = new_world()
      OTHER:spawn{ x = 0.5, y = 1, z = 0.5 }
    end
    local ok = pcall(W.stats, W)
    if not ok then
      for _, e in ipairs(ENTS) do DEAD[#DEAD + 1] = e end
      W = new_world()
      mark()
    end
    local live = {}
    for _, e in ipairs(ENTS) do
      if e:valid() and rawequal(e.world, W) then live[#live + 1] = e
      else DEAD[#DEAD + 1] = e end
    end
    ENTS = live
    while #DEAD > 8 do table.remove(DEAD, 1) end
    while #ENTS < 4 do
      local ok2, e = pcall(W.spawn, W, { x = R(9) - 5 + 0.5, y = 1 + R(3), z = R(9) - 5 + 0.5,
                                         rules = R(2) == 1 and bp.rules.mccpp() or nil })
      if not ok2 then break end
      ENTS[#ENTS + 1] = e
    end
  end

  W, OTHER = new_world(), new_world()
  OTHER:spawn{ x = 0.5, y = 1, z = 0.5 }
  for _ = 1, ncalls do
    refresh()

    local t = targets[R(#targets)]
    local before_hostile = S.hostile
    local before = t[2] and world_state(W)
    -- Now and then memory runs out: the world's n-th next allocation fails, in
    -- whichever later call makes it.
    if R(5) == 1 then W:_fail_alloc(R(3)) end
    local res = C.pack_table(t[3]())
    S.calls = S.calls + 1
    -- collect new entities so that later calls use them
    for i = 2, res.n do
      local v = res[i]
      if getmetatable(v) == getmetatable(ENTS[1] or OTHER:entities()[1]) and v:valid()
          and rawequal(v.world, W) then
        ENTS[#ENTS + 1] = v
      end
    end
    if not res[1] then
      S.errors = S.errors + 1
      local err = res[2]
      if type(err) == "string" and err:find("not enough memory") then
        S.starved = S.starved + 1
      end
      if type(err) ~= "string" then
        S.bad[#S.bad + 1] = t[1] .. ": non-string error (" .. type(err) .. ")"
      elseif not documented(err) then
        S.bad[#S.bad + 1] = t[1] .. ": undocumented error: " .. err
      elseif t[2] and not (t[1] == "paste" and err:find("not enough memory")) -- documented
          and (t[1] == "step" -- a failing step undoes all, hooks' doings too
          or S.hostile == before_hostile and not err:find("HOSTILE")
          and not err:find("yield") and not err:find("hook") and not err:find("filter")) then
        local after = world_state(W)
        if not same(before, after) then
          S.bad[#S.bad + 1] = t[1] .. ": state changed by a failing call: " .. err
        end
      end
    end
  end
  return S
end

describe("fuzz: hostile input to every API function", function()
  for _, seed in ipairs({ 1, 0xB10C, 20240601 }) do
    it("seed " .. seed .. ": 1500 calls, string errors only, nothing half-applied", function()
      local S = run_fuzz(seed, 1500)
      assert.are.same({}, S.bad)
      assert.are.equal(1500, S.calls)
      assert.is_true(S.errors > 100) -- the pool is hostile: most calls must fail
      -- and memory did run out in some (few calls allocate: spec/oom_spec.lua fails
      -- every allocation of each growing call in turn)
      assert.is_true(S.starved > 0, "memory never ran out in a call")
    end)
  end
end)

-- Each bug the fuzzer found, as a focused case with its exact message.
describe("fuzz regressions", function()
  local function world_with_entity()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:fill(-4, 0, -4, 4, 0, 4, "stone")
    return w, w:spawn{ x = 0.5, y = 1, z = 0.5 }
  end

  it("the rules view metamethods called directly on another value raise (no crash)", function()
    local _, e = world_with_entity()
    local mt = debug.getmetatable(e.rules)
    assert.are.same({ false, "bad argument #1 to '?' (blockphys.RulesView expected, got number)" },
                    { pcall(mt.__index, 5, "gravity") })
    assert.are.same({ false, "bad argument #1 to '?' (blockphys.RulesView expected, got table)" },
                    { pcall(mt.__newindex, {}, "gravity", 1) })
  end)

  it("a spawn table or block definition whose metamethod destroys the world raises", function()
    local w = world_with_entity()
    local def = setmetatable({ x = 0.5, y = 1, z = 0.5 }, { __index = function() w:destroy() end })
    assert.are.same({ false, "bad argument #1 to '?' (world has been destroyed)" },
                    { pcall(w.spawn, w, def) })
    w = world_with_entity()
    def = setmetatable({ name = "x" }, { __index = function() w:destroy() end })
    assert.are.same({ false, "bad argument #1 to '?' (world has been destroyed)" },
                    { pcall(w.define_block, w, def) })
  end)

  it("world:destroy() from a finalizer destroys the world for Lua at once", function()
    local w = world_with_entity()
    C.finalizer(function() w:destroy() end)
    collectgarbage()
    collectgarbage()
    assert.are.same({ false, "bad argument #1 to '?' (world has been destroyed)" },
                    { pcall(w.stats, w) })
  end)

  it("rules = e.rules (a live view) copies the rules, in spawn and on assignment", function()
    local w, e = world_with_entity()
    e.rules.jump_impulse = 0.5
    local e2 = w:spawn{ x = 2.5, y = 1, z = 2.5, rules = e.rules }
    assert.are.equal(0.5, e2.rules.jump_impulse)
    local e3 = w:spawn{ x = -2.5, y = 1, z = -2.5 }
    e3.rules = e.rules
    assert.are.equal(0.5, e3.rules.jump_impulse)
    e.rules.jump_impulse = 0.25 -- a copy, not shared
    assert.are.equal(0.5, e3.rules.jump_impulse)
  end)

  it("a hook error whose __tostring raises fails the step with a string; the world unlocks", function()
    local w, e = world_with_entity()
    e.jumping = true
    e.rules.jump = function()
      error(setmetatable({}, { __tostring = function() error("again") end }))
    end
    assert.are.same({ false, "world:step: rules hook 'jump' of entity 1 failed: (a table value)" },
                    { pcall(w.step, w) })
    assert.is_true(pcall(w.spawn, w, { x = 2.5, y = 1, z = 2.5 })) -- not left locked
  end)

  it("a hook that clears a filter then raises: the restored world steps again", function()
    local w, e = world_with_entity()
    local o = w:spawn{ x = 0.9, y = 1, z = 0.5, filter = function() return true end,
                       rules = bp.rules.beta173{ push = "separate" } }
    e.rules.push = "separate"
    e.jumping = true
    e.rules.jump = function() o.filter = nil; error("after") end
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.truthy(err:find("world:step: rules hook 'jump' of entity 1 failed: ", 1, true))
    e.rules.jump = nil
    assert.are.same({ true }, { pcall(w.step, w) }) -- no "attempt to call a nil value"
  end)
end)

return run_fuzz
