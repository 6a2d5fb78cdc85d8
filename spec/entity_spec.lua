-- luacheck: std +busted
-- Entities: fields, input ranges, teleport, lerp, removal and handle generations,
-- creation order, identity, world lifetime (GC, destroy) and the lock inside hooks.
local bp = require "blockphys"
local H = require "helpers.world"
local C = require "helpers.compat"

-- The error of any field of a removed entity, read or written.
local function removed(k) return "entity field '" .. k .. "': entity has been removed" end

describe("Entity", function()
  describe("fields", function()
    it("has the spawn defaults: 0.6F x 1.8F at rest in the air", function()
      local w = H.world()
      local e = w:spawn{ x = 1.5, y = 2, z = -3.25 }
      assert.same({ 1.5, 2, -3.25 }, { e:position() })
      assert.equal(1.5, e.x); assert.equal(2, e.y); assert.equal(-3.25, e.z)
      assert.equal(0.6000000238418579, e.width)
      assert.equal(1.7999999523162842, e.height)
      for _, k in ipairs{ "vx", "vy", "vz", "forward", "strafe", "yaw", "fall_distance",
                          "y_size", "step_offset" } do
        assert.equal(0, e[k], k)
      end
      for _, k in ipairs{ "on_ground", "collided_horizontally", "collided_vertically",
                          "in_water", "in_lava", "jumping", "sneaking", "flying", "solid" } do
        assert.is_false(e[k], k)
      end
      assert.equal(1, e.group)
      assert.equal(0xFFFFFFFF, e.mask)
      assert.equal("beta173", e.rules.model)
      assert.equal(w, e.world)
      assert.is_nil(e.nonexistent)
    end)

    it("takes spawn options", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0, width = 0.98, height = 0.7, yaw = 45,
                         vx = 0.5, vy = -1, vz = 2, group = 4, mask = 6, solid = true }
      assert.equal(0.98, e.width); assert.equal(0.7, e.height)
      assert.equal(45, e.yaw)
      assert.same({ 0.5, -1, 2 }, { e:velocity() })
      assert.equal(4, e.group); assert.equal(6, e.mask)
      assert.is_true(e.solid)
      assert.is_true(e:box() == bp.Collider(-0.49, 0, -0.49, 0.49, 0.7, 0.49))
    end)

    it("writes velocity, input, flags, group and mask", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      e.vx, e.vy, e.vz = 1.25, -2, 3
      e.forward, e.strafe, e.yaw = -1, 0.5, 270
      e.jumping, e.sneaking, e.flying, e.solid = true, true, true, true
      e.fall_distance = 4
      e.group, e.mask = 2, 0
      assert.same({ 1.25, -2, 3 }, { e:velocity() })
      assert.equal(-1, e.forward); assert.equal(0.5, e.strafe); assert.equal(270, e.yaw)
      assert.is_true(e.jumping and e.sneaking and e.flying and e.solid)
      assert.equal(4, e.fall_distance)
      assert.equal(2, e.group); assert.equal(0, e.mask)
    end)

    it("refuses writes to read-only fields", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      for _, k in ipairs{ "x", "y", "z" } do
        assert.has_error(function() e[k] = 1 end,
          "entity field '" .. k .. "' is read-only (use e:teleport(x, y, z))")
      end
      for _, k in ipairs{ "width", "height", "y_size", "step_offset", "on_ground",
                          "collided_horizontally", "collided_vertically", "in_water",
                          "in_lava", "world" } do
        assert.has_error(function() e[k] = 1 end, "entity field '" .. k .. "' is read-only")
      end
      assert.has_error(function() e.foo = 1 end, "entity has no field 'foo'")
      assert.same({ 0, 0, 0 }, { e:position() })
    end)

    -- Fields and methods are found in one table (lfields.c, field_code): method
    -- names are not fields, other key types name nothing, and the field metamethods
    -- still check their first argument when called directly.
    it("tells fields, methods and other keys apart", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      assert.has_error(function() e.move = 1 end, "entity has no field 'move'")
      assert.has_error(function() e[5] = 1 end, "entity has no field '5'")
      assert.error_matches(function() e[{}] = 1 end, "string expected, got table", 1, true)
      assert.is_nil(e[5])
      assert.is_nil(e[true])
      assert.is_nil(e.nothing)
      assert.equal("function", type(e.move))
      local mt = debug.getmetatable(e)
      local expected = "blockphys.Entity expected"
      assert.error_matches(function() mt.__newindex(io.stdout, "jumping", true) end, expected, 1, true)
      assert.error_matches(function() mt.__index({}, "x") end, expected, 1, true)
      assert.error_matches(function() mt.__newindex(w, "jumping", true) end, expected, 1, true)
      w:remove(e)
      assert.equal("function", type(e.valid))
      assert.is_false(e:valid())
      assert.error_matches(function() return e.x end, "entity has been removed", 1, true)
      assert.error_matches(function() e.jumping = true end, "entity has been removed", 1, true)
    end)

    it("refuses a step just over the move limit, naming the entity and the exact displacement", function()
      local w = H.world()
      w:spawn{ x = 0, y = 0, z = 0, vz = -1000 }
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      w:spawn{ x = 0, y = 0, z = 0, vy = 1024 }
      e.vx = 1024.000000000001 -- the nearest double is 1024.0000000000009
      assert.has_error(function() w:step() end, "world:step: entity 2 would move " ..
        "1024.0000000000009 blocks in one step (at most 1024 per axis)")
    end)

    -- Pins (mutation test) that the step's pre-check names the FIRST entity in creation
    -- order among those tied for the largest displacement (a strict `>` in
    -- bp_world_max_displacement; `>=` would name the last, entity 3).
    it("names the first of the entities tied for the largest displacement", function()
      local w = H.world()
      w:spawn{ x = 0, y = 0, z = 0 }
      local a, b = w:spawn{ x = 0, y = 0, z = 0 }, w:spawn{ x = 0, y = 0, z = 0 }
      a.vx, b.vz = 2000, -2000
      assert.has_error(function() w:step() end, "world:step: entity 2 would move " ..
        "2000 blocks in one step (at most 1024 per axis)")
    end)

    -- Pins (mutation test) that the core's own spawn check (def_ok) keeps the limits
    -- inclusive like the binding's: width 16, height 32 and |x| = max_coord are legal
    -- (a `<` there makes spawn fail with "invalid argument").
    it("spawns at the inclusive limits: width 16, height 32, |x|, |y|, |z| = max_coord", function()
      local w = H.world()
      local m = bp.limits.max_coord
      assert.equal(2147482000, m)
      local e = w:spawn{ x = m, y = -m, z = -m, width = 16, height = 32 }
      assert.same({ m, -m, -m }, { e:position() })
      assert.equal(16, e.width); assert.equal(32, e.height)
      assert.is_true(e:box() == bp.Collider(m - 8, -m, -m - 8, m + 8, -m + 32, -m + 8))
      local f = w:spawn{ x = -m, y = m, z = m, width = 16, height = 32 }
      assert.same({ -m, m, m }, { f:position() })
      assert.equal(2, w:stats().entities)
    end)

    it("checks input ranges and types", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      assert.has_error(function() e.forward = 1.5 end, "entity field 'forward' must be in [-1, 1]")
      assert.has_error(function() e.strafe = -2 end, "entity field 'strafe' must be in [-1, 1]")
      assert.has_error(function() e.vx = 0 / 0 end, "entity field 'vx' must be a finite number")
      assert.has_error(function() e.yaw = math.huge end,
        "entity field 'yaw' must be a finite number")
      assert.has_error(function() e.vy = "up" end, "entity field 'vy' must be a finite number")
      assert.has_error(function() e.group = 1.5 end,
        "entity field 'group' must be an integer in [0, 2^32)")
      assert.has_error(function() e.jumping = 1 end, "entity field 'jumping' must be a boolean")
      assert.has_error(function() e.group = -1 end,
        "entity field 'group' must be an integer in [0, 2^32)")
      assert.has_error(function() e.mask = 2 ^ 32 end,
        "entity field 'mask' must be an integer in [0, 2^32)")
      assert.equal(0, e.forward); assert.equal(0, e.strafe); assert.equal(0, e.vx)
      assert.is_false(e.jumping)
    end)
  end)

  describe(":teleport and :lerp", function()
    it("teleports the box and resets ground and fall state", function()
      local w = H.world()
      H.flat(w, 0)
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      e:move(0, -0.1, 0)
      e.fall_distance = 3
      assert.is_true(e.on_ground)
      e:move(0, 2, 0)
      e:move(0, -2.5, 0) -- lands: the landing move's own drop is not added (the game's
      assert.equal(3, e.landing_fall) -- updateFallState)
      e:teleport(-10.5, 20, 7.25)
      assert.same({ -10.5, 20, 7.25 }, { e:position() })
      assert.is_false(e.on_ground)
      assert.equal(0, e.fall_distance)
      assert.equal(0, e.landing_fall)
      assert.has_error(function() e.landing_fall = 1 end)
      -- Beta calls fall() only for a distance > 0; a distance a script set <= 0 stays
      for _, move in ipairs{ e.move, e.move_swept } do
        e:teleport(0.5, 1, 0.5)
        e.fall_distance = -5
        move(e, 0, -0.5, 0)
        assert.is_true(e.on_ground)
        assert.equal(0, e.landing_fall)
        assert.equal(-5, e.fall_distance)
      end
      e:teleport(-10.5, 20, 7.25)
      -- lerp has no previous position to go from: both ends are the new one
      assert.same({ -10.5, 20, 7.25 }, { e:lerp(0.5) })
      assert.has_error(function() e:teleport(0, 3e9, 0) end,
        "bad argument #2 to 'teleport' (position outside the world (|coordinate| > 2147482000))")
      assert.has_error(function() e:teleport(0 / 0, 0, 0) end,
        "bad argument #1 to 'teleport' (number must be finite)")
      assert.same({ -10.5, 20, 7.25 }, { e:position() })
    end)

    -- Pins (mutation test) that spawn sets the previous position to the spawn point
    -- (memcpy(e->prev, ...) in bp_world_spawn): without it lerp(0) gives 0, 0, 0.
    it("gives the spawn position at any alpha before the first step", function()
      local w = H.world()
      local e = w:spawn{ x = 1.5, y = 2, z = -3.25, vx = 1 }
      assert.same({ 1.5, 2, -3.25 }, { e:lerp(0) })
      assert.same({ 1.5, 2, -3.25 }, { e:lerp(0.5) })
      assert.same({ 1.5, 2, -3.25 }, { e:lerp(1) })
    end)

    it("interpolates between the previous and the current tick", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 10, z = 0, vx = 1, vz = -2 }
      w:step()
      local x, y, z = e:position()
      assert.same({ 0, 10, 0 }, { e:lerp(0) })
      assert.same({ x, y, z }, { e:lerp(1) })
      local lx, ly, lz = e:lerp(0.25)
      assert.equal(0.25 * x, lx)
      assert.equal(10 + (y - 10) * 0.25, ly)
      assert.equal(0.25 * z, lz)
      assert.has_error(function() e:lerp(0 / 0) end,
        "bad argument #1 to 'lerp' (number must be finite)")
      -- a finite alpha, but z: 0 + (about -2) x 1e308 is past the doubles
      assert.has_error(function() e:lerp(1e308) end,
        "bad argument #1 to 'lerp' (alpha extrapolates past the finite numbers)")
      -- alpha 1 is the current position exactly, also where prev + (cur - prev) rounds
      -- an ulp away from it (from x = -0.99816 by vx = 0.8)
      local f = w:spawn{ x = -0.99816, y = 64, z = 0, vx = 0.8, rules = bp.rules.beta173{ gravity = 0 } }
      w:step()
      local fx = f.x
      assert.is_true(-0.99816 + (fx - -0.99816) * 1 ~= fx) -- the rounding this needs
      assert.equal(fx, (f:lerp(1)))
    end)

    it("adds only a drop to the fall distance, in float unless beyond the float range", function()
      local w = H.world()
      for _, move in ipairs{ "move", "move_swept" } do
        local e = w:spawn{ x = 0.5, y = 50, z = 0.5 }
        e.fall_distance = 0.1 -- not a float: a script wrote it
        e[move](e, 1, 0, 0)   -- dy = 0 in the air: no drop, nothing added, no rounding
        assert.equal(0.1, e.fall_distance, move)
        assert.equal(math.huge, 1 / e.landing_fall, move) -- +0: the move did not land
        e[move](e, 0, 0.5, 0) -- a rise: nothing added either
        assert.equal(0.1, e.fall_distance, move)
        e[move](e, 0, -0.5, 0) -- a drop: (float)(0.1 + 0.5)
        assert.equal(H.f32(0.1 + 0.5), e.fall_distance, move)
        for _, big in ipairs{ 1e39, -1e39 } do
          e.fall_distance = big
          e[move](e, 0, -1, 0) -- big - (-1) rounds to big; kept, not made infinite
          assert.equal(big, e.fall_distance, move)
        end
        w:remove(e)
      end
    end)
  end)

  describe("removal and handles", function()
    -- e.rules = t reads t (its metamethods may run) before it applies it: an entity
    -- removed or a world destroyed meanwhile is named as any field access names it.
    it("names the entity field when e.rules = t removes the entity as it is read", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      local vec = setmetatable({}, { __index = function()
        if e:valid() then w:remove(e) end
        return 1
      end })
      assert.has_error(function() e.rules = { model = "mccpp", friction = vec } end, removed("rules"))
      local w2 = H.world()
      local e2 = w2:spawn{ x = 0, y = 0, z = 0 }
      local vec2 = setmetatable({}, { __index = function() w2:destroy(); return 1 end })
      assert.has_error(function() e2.rules = { model = "mccpp", friction = vec2 } end,
        "entity field 'rules': entity belongs to a destroyed world")
    end)

    it("makes every field and method raise 'entity has been removed'", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      local keep = w:spawn{ x = 5, y = 0, z = 0 }
      w:remove(e)
      assert.is_false(e:valid())
      assert.is_true(keep:valid())
      assert.equal("blockphys.Entity (removed)", tostring(e))
      for _, k in ipairs{ "x", "y", "z", "vx", "vy", "vz", "on_ground", "collided_horizontally",
                          "collided_vertically", "in_water", "in_lava", "fall_distance",
                          "landing_fall", "forward", "strafe", "yaw", "jumping", "sneaking", "flying", "solid",
                          "group", "mask", "rules", "width", "height", "y_size", "world" } do
        assert.has_error(function() return e[k] end, removed(k))
        assert.has_error(function() e[k] = 0 end, removed(k))
      end
      -- keys that name no field: no entity check, as for a live entity
      assert.is_nil(e.foo)
      assert.is_nil(e[{}])
      assert.is_function(e.valid)
      assert.has_error(function() e.foo = 1 end, "entity has no field 'foo'")
      for _, m in ipairs{ "position", "velocity", "box", "lerp" } do
        assert.has_error(function() e[m](e, 0) end,
          "bad argument #1 to '?' (entity has been removed)")
      end
      assert.has_error(function() e:move(1, 0, 0) end,
        "calling 'move' on bad self (entity has been removed)")
      assert.has_error(function() e:move_swept(1, 0, 0) end,
        "calling 'move_swept' on bad self (entity has been removed)")
      assert.has_error(function() e:teleport(1, 0, 0) end,
        "calling 'teleport' on bad self (entity has been removed)")
      assert.has_error(function() w:remove(e) end,
        "bad argument #1 to 'remove' (entity has been removed)")
      assert.same({ keep }, w:entities())
      assert.equal(1, w:stats().entities)
      assert.equal(5, keep.x)
    end)

    it("makes a rules view kept from a removed entity raise 'entity.rules: ...'", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      local view = e.rules
      w:remove(e)
      local gone = "entity.rules: entity has been removed"
      assert.has_error(function() return view.gravity end, gone)
      assert.has_error(function() view.gravity = 0.1 end, gone)
      assert.has_error(function() view.jump = nil end, gone)
      assert.has_error(function() return C.pairs(view) end, gone)
      assert.has_error(function() return bp.rules.copy(view) end, gone)
      local w2 = H.world()
      local view2 = w2:spawn{ x = 0, y = 0, z = 0 }.rules
      w2:destroy()
      assert.has_error(function() view2.gravity = 0.1 end,
        "entity.rules: entity belongs to a destroyed world")
    end)

    it("keeps an old handle invalid after its slot is reused (generations)", function()
      local w = H.world()
      local old = w:spawn{ x = 0, y = 0, z = 0 }
      w:remove(old)
      local new = w:spawn{ x = 7, y = 0, z = 0 }
      assert.equal("blockphys.Entity 1:2 (7.0, 0.0, 0.0)", tostring(new))
      assert.is_false(old:valid())
      assert.is_true(new:valid())
      assert.is_false(old == new)
      assert.has_error(function() return old.x end, removed("x"))
      assert.equal(7, new.x)
    end)

    it("refuses an entity of another world", function()
      local w1, w2 = H.world(), H.world()
      local e = w1:spawn{ x = 0, y = 0, z = 0 }
      assert.has_error(function() w2:remove(e) end,
        "bad argument #1 to 'remove' (entity belongs to another world)")
      assert.is_true(e:valid())
    end)
  end)

  describe("world:entities()", function()
    it("lists live entities in creation order, the same userdata every time", function()
      local w = H.world()
      local a = w:spawn{ x = 0, y = 0, z = 0 }
      local b = w:spawn{ x = 1, y = 0, z = 0 }
      local c = w:spawn{ x = 2, y = 0, z = 0 }
      assert.same({ a, b, c }, w:entities())
      w:remove(b)
      local d = w:spawn{ x = 3, y = 0, z = 0 } -- reuses b's slot, but comes last
      local list = w:entities()
      assert.equal(3, #list)
      assert.is_true(rawequal(a, list[1]))
      assert.is_true(rawequal(c, list[2]))
      assert.is_true(rawequal(d, list[3]))
    end)

    it("entities work as table keys", function()
      local w = H.world()
      local a = w:spawn{ x = 0, y = 0, z = 0 }
      local b = w:spawn{ x = 1, y = 0, z = 0 }
      local names = { [a] = "a", [b] = "b" }
      local list = w:entities()
      assert.equal("a", names[list[1]])
      assert.equal("b", names[list[2]])
      -- hooks receive the same userdata too
      local seen
      a.rules = bp.rules.beta173{ jump = function(ent) seen = names[ent] end }
      a.jumping = true
      w:step()
      assert.equal("a", seen)
    end)
  end)

  describe("world lifetime", function()
    it("keeps the world alive while an entity is held", function()
      local e
      do
        local w = H.world()
        H.flat(w, 0)
        e = w:spawn{ x = 0.5, y = 5, z = 0.5 }
      end
      collectgarbage()
      collectgarbage()
      assert.is_true(e:valid())
      local _, dy = e:move(0, -10, 0)
      assert.equal(-4, dy)
      e.world:step()
      assert.equal(1, e.y)
    end)

    it("collects a world with its entities and colliders once nothing holds them", function()
      -- Under the sanitizers and memcheck a bad free here also fails the run.
      local weak = setmetatable({}, { __mode = "v" })
      do
        local w = H.world()
        local e = w:spawn{ x = 0, y = 0, z = 0 }
        w:remove(e)
        weak.world, weak.removed = w, e
        weak.entity = w:spawn{ x = 0, y = 0, z = 0 }
        w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1)) -- a handle number, not an object
      end
      collectgarbage()
      collectgarbage()
      assert.are.same({}, weak)
    end)

    it("raises after world:destroy() for the world and its entities", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      w:destroy()
      w:destroy() -- a second destroy is harmless
      assert.is_false(e:valid())
      assert.equal("blockphys.Entity (removed)", tostring(e))
      assert.has_error(function() return e.x end,
        "entity field 'x': entity belongs to a destroyed world")
      assert.has_error(function() w:spawn{ x = 0, y = 0, z = 0 } end,
        "calling 'spawn' on bad self (world has been destroyed)")
      assert.has_error(function() w:get_block(0, 0, 0) end,
        "calling 'get_block' on bad self (world has been destroyed)")
      assert.has_error(function() w:step() end,
        "calling 'step' on bad self (world has been destroyed)")
      assert.has_error(function() w:entities() end,
        "calling 'entities' on bad self (world has been destroyed)")
    end)

    it("closes with a to-be-closed variable", function()
      -- Lua 5.4 syntax, compiled from a string: the file parses under Lua 5.1
      if _VERSION ~= "Lua 5.4" then return pending("to-be-closed variables are Lua 5.4's") end
      local e = assert(load([[
        local H = ...
        local e
        do
          local w <close> = H.world()
          e = w:spawn{ x = 0, y = 0, z = 0 }
        end
        return e]]))(H)
      assert.is_false(e:valid())
    end)
  end)

  describe("the world is locked inside hooks", function()
    local LOCK = "world is locked: blocks, entities and colliders cannot be added or " ..
                 "removed inside world:step (from a rules hook or filter)"
    local attempts = {
      spawn = function(w) w:spawn{ x = 0, y = 0, z = 0 } end,
      set_block = function(w) w:set_block(0, 0, 0, "stone") end,
      fill = function(w) w:fill(0, 0, 0, 1, 1, 1, "stone") end,
      define_block = function(w) w:define_block{ name = "new" } end,
      remove = function(w, e) w:remove(e) end,
      add_collider = function(w) w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1)) end,
      remove_collider = function(w, _, handle) w:remove_collider(handle) end,
    }
    for name, attempt in pairs(attempts) do
      it("refuses " .. name .. " from a hook and restores the world", function()
        local w = H.world()
        local handle = w:add_collider(bp.Collider(5, 5, 5, 6, 6, 6))
        local e = w:spawn{ x = 0.5, y = 10, z = 0.5, rules = bp.rules.beta173{
          jump = function(ent) attempt(ent.world, ent, handle) end } }
        e.jumping = true
        local before, stats = H.state(e), w:stats()
        local ok, err = pcall(w.step, w)
        assert.is_false(ok)
        assert.equal("world:step: rules hook 'jump' of entity 1 failed: ", err:sub(1, 50))
        assert.equal(name .. ": " .. LOCK, err:sub(-#LOCK - #name - 2))
        assert.same(before, H.state(e))
        assert.same(stats, w:stats())
        assert.equal(0, w:get_block(0, 0, 0))
      end)
    end

    it("refuses a nested step and destroy", function()
      local w = H.world()
      local inner
      local e = w:spawn{ x = 0.5, y = 10, z = 0.5, rules = bp.rules.beta173{
        jump = function(ent) ent.world[inner](ent.world) end } }
      e.jumping = true
      inner = "step"
      local _, err = pcall(w.step, w)
      assert.truthy(err:find("world:step: already stepping (called from a rules hook or filter)", 1, true))
      inner = "destroy"
      _, err = pcall(w.step, w)
      assert.truthy(err:find("destroy: world is locked: cannot destroy it inside world:step", 1, true))
      assert.is_true(e:valid())
    end)

    it("unlocks after a failed step", function()
      local w = H.world()
      local e = w:spawn{ x = 0.5, y = 10, z = 0.5, rules = bp.rules.beta173{
        jump = function() error("stop", 0) end } }
      e.jumping = true
      assert.has_error(function() w:step() end,
        "world:step: rules hook 'jump' of entity 1 failed: stop")
      w:set_block(0, 0, 0, "stone")
      assert.equal(1, w:get_block(0, 0, 0))
    end)
  end)
end)
