-- luacheck: std +busted
-- A world's __gc called by hand (debug.getmetatable(w).__gc(w)) from every place that
-- runs Lua code while a C call holds the world: rules hooks, filters, an error object's
-- __tostring, finalizers that fire inside a method. The world is destroyed for Lua at
-- once and freed when the call holding it returns; nothing reads freed memory (these
-- specs crashed under ASan before the fix). Also: every metatable is protected.
local bp = require "blockphys"
local C = require "helpers.compat"

local function gc_by_hand(w)
  debug.getmetatable(w).__gc(w)
end

local DESTROYED = "world has been destroyed"

-- A world with a floor, and an entity standing on it.
local function scene(spawn_args)
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-3, -1, -3, 3, -1, 3, "stone")
  spawn_args = spawn_args or {}
  spawn_args.x, spawn_args.y, spawn_args.z = 0, 0, 0
  return w, w:spawn(spawn_args)
end

local function assert_destroyed(w, e)
  assert.error_matches(function() w:step() end, DESTROYED, 1, true)
  assert.error_matches(function() return w:stats() end, DESTROYED, 1, true)
  assert.equal("blockphys.World (destroyed)", tostring(w))
  if e then
    assert.is_false(e:valid())
    assert.error_matches(function() return e.x end, "entity belongs to a destroyed world", 1, true)
  end
  collectgarbage()
  collectgarbage()
end

describe("a world's __gc called by hand", function()
  it("outside any call destroys the world at once; a second call does nothing", function()
    local w, e = scene()
    gc_by_hand(w)
    gc_by_hand(w)
    assert_destroyed(w, e)
  end)

  it("from a rules hook 'jump' inside world:step", function()
    local w
    w = scene{ rules = bp.rules.beta173{ jump = function() gc_by_hand(w) end } }
    local e = w:entities()[1]
    e.jumping = true
    assert.has_no_error(function() w:step() end)
    assert_destroyed(w, e)
  end)

  it("from a rules hook 'heading' inside world:step", function()
    local w
    w = scene{ rules = bp.rules.beta173{ heading = function() gc_by_hand(w); return 0, 0 end } }
    local e = w:entities()[1]
    e.forward = 1
    assert.has_no_error(function() w:step() end)
    assert_destroyed(w, e)
  end)

  it("from a hook that uses the world afterwards: the step fails, naming the hook", function()
    local w, e
    w, e = scene{ rules = bp.rules.beta173{ jump = function(self)
      gc_by_hand(w)
      return self.x -- the entity's world is gone
    end } }
    e.jumping = true
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.matches("^world:step: rules hook 'jump' of entity 1 failed: .*entity field 'x': "
      .. "entity belongs to a destroyed world$", err)
    assert_destroyed(w, e)
  end)

  it("from an entity filter inside world:step", function()
    local w
    w = scene{ filter = function() gc_by_hand(w); return true end }
    w:spawn{ x = 0.1, y = 0, z = 0 }
    assert.has_no_error(function() w:step() end)
    assert_destroyed(w)
  end)

  for _, method in ipairs{ "move", "move_swept" } do
    it("from an entity filter inside e:" .. method, function()
      local w, e = scene{ solid = true }
      w:spawn{ x = 1.5, y = 0, z = 0, solid = true }
      e.filter = function() gc_by_hand(w); return true end
      local dx = e[method](e, 2, 0, 0)
      assert.is_true(dx < 1) -- the move itself was resolved against the other entity
      assert_destroyed(w, e)
    end)
  end

  it("from an error object's __tostring while the failing step builds its message", function()
    local w
    local err = setmetatable({}, { __tostring = function() gc_by_hand(w); return "boom" end })
    w = scene{ rules = bp.rules.beta173{ jump = function() error(err) end } }
    local e = w:entities()[1]
    e.jumping = true
    assert.has_error(function() w:step() end,
      "world:step: rules hook 'jump' of entity 1 failed: boom")
    assert_destroyed(w, e)
  end)

  -- Finalizers run at allocations inside the method, which holds pointers into the world.
  for _, case in ipairs{
    { "entities", function(w) return w:entities() end },
    { "query", function(w) return w:query(bp.Collider(-10, -10, -10, 10, 10, 10)) end },
    { "stats", function(w) return w:stats() end },
    { "block_info", function(w) return w:block_info("stone") end },
    { "boxes_in", function(w) return w:boxes_in(bp.Collider(-3, -1, -3, 3, 0, 3)) end },
  } do
    it("from a finalizer that runs inside world:" .. case[1], function()
      local w = scene()
      for i = 1, 200 do w:spawn{ x = i % 5, y = 0, z = 0 } end
      -- until a finalizer has run: inside the call (which then returns or raises the
      -- destroyed world) or between two calls (the next one raises)
      for _ = 1, 100000 do
        for _ = 1, 20 do C.finalizer(function() gc_by_hand(w) end) end
        local ok, r = pcall(case[2], w)
        if not ok then
          assert.matches(DESTROYED, r, 1, true)
          break
        end
        if tostring(w) == "blockphys.World (destroyed)" then break end
      end
      assert_destroyed(w)
    end)
  end
end)

-- A finalizer that runs the collector first: before Lua 5.4 the collector then reads
-- as running for the rest of the finalizer (LuaJIT after collectgarbage() or "step",
-- 5.2, 5.3 and LuaJIT after "restart"), and destroy freed the world under the method
-- the finalizer interrupted (ASan: heap-use-after-free under Lua 5.3; LuaJIT's own
-- allocator hides it from ASan). The world must wait, detached, for that method.
describe("a finalizer that runs the collector, then destroys the world", function()
  for _, mode in ipairs{ "restart", "collect", "step" } do
    for _, how in ipairs{ "destroy", "__gc" } do
      it(("inside world:boxes_in (collectgarbage %q, then %s)"):format(mode, how), function()
        local w = scene()
        local region = bp.Collider(-3, -1, -3, 3, 0, 3) -- 49 blocks: one Collider each
        local method = w.boxes_in
        local fired, detached = false, nil
        local function fin()
          if fired then return end
          -- only while the method runs: between two calls the world may be freed at once
          local inside = false
          for level = 2, 60 do
            local info = debug.getinfo(level, "f")
            if not info then break end
            if info.func == method then inside = true; break end
          end
          if not inside then return end
          fired = true
          collectgarbage(mode)
          if how == "destroy" then w:destroy() else gc_by_hand(w) end
          detached = w:_detached()
        end
        for _ = 1, 100000 do
          for _ = 1, 20 do C.finalizer(fin) end
          local ok, r = pcall(method, w, region)
          if fired then
            if not ok then assert.matches(DESTROYED, r, 1, true) end
            break
          end
        end
        assert.is_true(fired)
        assert.is_true(detached)
        assert_destroyed(w)
      end)
    end
  end
end)

describe("protected metatables", function()
  it("getmetatable gives each type's name, and setmetatable on a rules table raises", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    local rules = bp.rules.beta173()
    assert.equal("blockphys.World", getmetatable(w))
    assert.equal("blockphys.Entity", getmetatable(e))
    assert.equal("blockphys.Collider", getmetatable(bp.Collider(0, 0, 0, 1, 1, 1)))
    assert.equal("blockphys.RulesView", getmetatable(e.rules))
    assert.equal("blockphys.Rules", getmetatable(rules))
    assert.has_error(function() setmetatable(rules, nil) end, "cannot change a protected metatable")
  end)

  it("a rules view passed as overrides is still named in the preset's error", function()
    local e = bp.World():spawn{ x = 0, y = 0, z = 0 }
    assert.has_error(function() bp.rules.beta173(e.rules) end,
      "bp.rules.beta173: bad argument #1 (table expected, got blockphys.RulesView)")
  end)
end)
