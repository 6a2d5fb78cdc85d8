-- luacheck: std +busted
-- Who pushes and blocks whom: groups and masks, and Lua filter functions.
local bp = require "blockphys"
local H = require "helpers.world"

local STILL = bp.rules.beta173{ push = false }

local function world() return (H.stone_floor(8)) end

-- Two beta173 entities 0.3 apart on X: do they push each other in one step?
local function pushes(def_a, def_b)
  local w = world()
  def_a.x, def_a.y, def_a.z = 0.5, 64, 0.5
  def_b.x, def_b.y, def_b.z = 0.8, 64, 0.5
  local a, b = w:spawn(def_a), w:spawn(def_b)
  w:step()
  return a.vx ~= 0 or b.vx ~= 0, w, a, b
end

-- Entity 2 at x = 0.5 with the given filter, and a solid entity 1 two blocks ahead on
-- +X, so that e:move(3, 0, 0) asks the filter about it.
local function mover(filter)
  local w = world()
  w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, solid = true, rules = STILL }
  return w, w:spawn{ x = 0.5, y = 64, z = 0.5, rules = STILL, filter = filter }
end

describe("filters", function()
  it("groups and masks: a pair interacts only if each mask has the other's group", function()
    assert.is_true((pushes({}, {})))
    assert.is_true((pushes({ group = 2, mask = 3 }, { group = 1, mask = 2 })))
    assert.is_false((pushes({ group = 2 }, { mask = 1 })))  -- b refuses a's group
    assert.is_false((pushes({ mask = 2 }, {})))             -- a refuses b's group
    assert.is_false((pushes({ group = 0 }, {})))
  end)

  it("reads and writes group and mask, and checks them", function()
    local w = world()
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, group = 4, mask = 5 }
    assert.equal(4, e.group)
    assert.equal(5, e.mask)
    e.group = 8
    assert.equal(8, e.group)
    assert.has_error(function() e.mask = -1 end,
                     "entity field 'mask' must be an integer in [0, 2^32)")
    assert.has_error(function() w:spawn{ x = 0, y = 0, z = 0, group = 1.5 } end,
                     "spawn: field 'group' must be an integer in [0, 2^32)")
  end)

  -- pins the bounds `v < 0` and `v > UINT32_MAX` of spawn and of the field write
  it("group and mask accept exactly 0 and 2^32 - 1, refuse -1 and 2^32", function()
    local w = world()
    local top = 4294967295
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, group = top, mask = 0 }
    assert.equal(top, e.group)
    assert.equal(0, e.mask)
    e.mask = top
    e.group = 0
    assert.equal(top, e.mask)
    assert.equal(0, e.group)
    for _, k in ipairs{ "group", "mask" } do
      assert.has_error(function() w:spawn{ x = 0, y = 0, z = 0, [k] = -1 } end,
                       "spawn: field '" .. k .. "' must be an integer in [0, 2^32)")
      assert.has_error(function() w:spawn{ x = 0, y = 0, z = 0, [k] = top + 1 } end,
                       "spawn: field '" .. k .. "' must be an integer in [0, 2^32)")
      assert.has_error(function() e[k] = top + 1 end,
                       "entity field '" .. k .. "' must be an integer in [0, 2^32)")
      assert.has_error(function() e[k] = -1 end,
                       "entity field '" .. k .. "' must be an integer in [0, 2^32)")
    end
    assert.equal(top, e.mask)
    assert.equal(0, e.group)
  end)

  it("a Lua filter decides pairs the bits cannot express, called as filter(self, other)", function()
    local calls = {}
    local function only_taller(self, other)
      calls[#calls + 1] = { self, other }
      return other.height > self.height
    end
    local pushed, _, a, b = pushes({ filter = only_taller }, { height = 1 })
    assert.is_false(pushed)
    assert.is_true(#calls >= 1)
    assert.equal(a, calls[1][1])
    assert.equal(b, calls[1][2])
    assert.is_true((pushes({ filter = only_taller }, { height = 2 })))
    -- both filters must agree
    assert.is_false((pushes({ filter = function() return true end },
                            { filter = function() return false end })))
  end)

  it("filters blocking by solid entities too", function()
    local w = world()
    w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, solid = true, rules = STILL }
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = STILL,
                       filter = function(_, other) return not other.solid end }
    assert.equal(3, (e:move(3, 0, 0)))
    e.filter = nil
    e:teleport(0.5, 64, 0.5)
    assert.is_true(e:move(3, 0, 0) < 2)
  end)

  it("e.filter reads, writes and survives a rules change", function()
    local w = world()
    local f = function() return false end
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, filter = f }
    assert.equal(f, e.filter)
    e.rules = bp.rules.beta173{ jump_impulse = 0.5 }
    assert.equal(f, e.filter)
    e.filter = nil
    assert.is_nil(e.filter)
    assert.has_error(function() e.filter = 3 end,
                     "entity field 'filter' must be a function or nil")
    assert.has_error(function() w:spawn{ x = 0, y = 64, z = 0, filter = "no" } end,
                     "spawn: field 'filter' must be a function or nil")
    -- pins the type check of spawn's filter: false is not nil
    assert.has_error(function() w:spawn{ x = 0, y = 64, z = 0, filter = false } end,
                     "spawn: field 'filter' must be a function or nil")
    assert.equal(1, #w:entities()) -- the failed spawn added nothing
  end)

  it("a failing filter aborts world:step, restores the world and names the entity", function()
    local w = world()
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    local b = w:spawn{ x = 0.8, y = 64, z = 0.5, filter = function() error("boom", 0) end }
    a.vx = 0.1
    w:spawn{ x = 5, y = 64, z = 5, vx = 0.2 }
    local before = {}
    for i, e in ipairs(w:entities()) do before[i] = { e.x, e.y, e.z, e.vx, e.vy, e.vz } end
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.equal("world:step: filter of entity 2 failed: boom", err)
    for i, e in ipairs(w:entities()) do
      assert.same(before[i], { e.x, e.y, e.z, e.vx, e.vy, e.vz })
    end
    -- the world still works: a fixed filter steps normally
    b.filter = function() return true end
    w:step()
    assert.is_true(a.vx ~= 0.1)
    assert.equal(0, #w:query(bp.Collider(100, 100, 100, 101, 101, 101)))
  end)

  -- Once a filter has raised, the step is being aborted and no more Lua is called:
  -- later pairs of the same push visit, and the ticks of later entities (their hooks
  -- and pushes) do not run. Entity 1 pushes 2 (whose filter raises) and then would ask
  -- 3; entities 4 and 5 overlap each other far away, 4 with a heading hook.
  it("calls no other filter or hook after a filter raised in world:step", function()
    local w = world()
    local asked, headings = 0, 0
    local count = function() asked = asked + 1; return true end
    w:spawn{ x = 0.5, y = 64, z = 0.5 }
    w:spawn{ x = 0.8, y = 64, z = 0.5, filter = function() error("boom", 0) end }
    w:spawn{ x = 0.5, y = 64, z = 0.8, filter = count }
    w:spawn{ x = 5.5, y = 64, z = 5.5, filter = count,
             rules = bp.rules.beta173{ heading = function()
               headings = headings + 1
               return 0, 0
             end } }
    w:spawn{ x = 5.8, y = 64, z = 5.5, filter = count }
    assert.has_error(function() w:step() end, "world:step: filter of entity 2 failed: boom")
    assert.equal(0, asked)
    assert.equal(0, headings)
    -- without the failing filter, the same step asks them all
    w:entities()[2].filter = nil
    w:step()
    assert.is_true(asked >= 3)
    assert.equal(1, headings)
  end)

  -- The same inside a move: e's X clip meets two solid entities in creation order; the
  -- first one's filter raises, so the second's is never asked.
  it("calls no other filter after a filter raised inside e:move", function()
    local w = world()
    local asked = 0
    w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, solid = true, rules = STILL,
             filter = function() error("nope", 0) end }
    w:spawn{ x = 2.5, y = 64, z = 1.2, width = 1, solid = true, rules = STILL,
             filter = function() asked = asked + 1; return true end }
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = STILL }
    assert.has_error(function() e:move(3, 0, 0) end, "move: filter of entity 1 failed: nope")
    assert.equal(0, asked)
    assert.equal(0.5, e.x)
    w:entities()[1].filter = nil
    e:move(3, 0, 0)
    assert.equal(1, asked)
  end)

  -- Separation (MC-CPP, after all moves): the pair (1, 2) raises in 1's filter, so the
  -- pairs (1, 3) and (3, 4) after it are never asked.
  it("calls no other filter after a filter raised in the separation push", function()
    local w = world()
    local asked = 0
    local count = function() asked = asked + 1; return true end
    local r = bp.rules.mccpp{}
    w:spawn{ x = 0.5, y = 64, z = 0.5, rules = r, filter = function(_, other)
      if other == w:entities()[2] then error("sep", 0) end
      return true
    end }
    w:spawn{ x = 0.8, y = 64, z = 0.5, rules = r }
    w:spawn{ x = 0.5, y = 64, z = 0.8, rules = r, filter = count }
    w:spawn{ x = 0.5, y = 64, z = 1.1, rules = r, filter = count }
    assert.has_error(function() w:step(0.05) end, "world:step: filter of entity 1 failed: sep")
    assert.equal(0, asked)
  end)

  it("a failing filter inside e:move restores the entity", function()
    local w, e = mover(function() error("nope", 0) end)
    local x = e.x
    local ok, err = pcall(e.move, e, 3, 0, 0)
    assert.is_false(ok)
    assert.equal("move: filter of entity 2 failed: nope", err)
    assert.equal(x, e.x)
    -- the world is not left locked
    w:spawn{ x = 5, y = 64, z = 5 }
  end)

  -- e:move restores its own entity only: the moving entity's hooks and filter go back
  -- with it; another entity keeps what the filter did to it, hooks and rules alike.
  it("a failing filter inside e:move puts back its entity's hooks and filter", function()
    local w, e = mover(nil)
    local other = w:entities()[1]
    local jump = function() end
    other.rules.jump = jump
    local own_jump = function() end
    e.rules.jump = own_jump
    local own
    own = function()
      other.rules = bp.rules.mccpp{ gravity = 10 }
      e.rules = bp.rules.mccpp{}
      e.filter = nil
      error("nope", 0)
    end
    e.filter = own
    assert.has_error(function() e:move(3, 0, 0) end, "move: filter of entity 2 failed: nope")
    assert.equal(own, e.filter)
    assert.equal(own_jump, e.rules.jump)
    assert.equal("beta173", e.rules.model)
    assert.equal("mccpp", other.rules.model)
    assert.equal(10, other.rules.gravity)
    assert.is_nil(other.rules.jump) -- with the rules the filter gave it
    -- a move that succeeds keeps what its filter did
    e.filter = function() e.rules.jump = nil; return true end
    e:move(3, 0, 0)
    assert.is_nil(e.rules.jump)
  end)

  it("a failing filter inside e:move puts back its entity's input too", function()
    local _, e = mover(function(self)
      self.forward, self.jumping, self.yaw = 1, true, 90
      error("nope", 0)
    end)
    assert.has_error(function() e:move(3, 0, 0) end, "move: filter of entity 2 failed: nope")
    assert.same({ 0, false, 0 }, { e.forward, e.jumping, e.yaw })
  end)

  it("after a step failed in a filter, e:move still reports its filter's failure", function()
    local w, e = mover(function() error("nope", 0) end)
    e.rules.push = "beta173"
    w:spawn{ x = 0.7, y = 64, z = 0.5 } -- overlaps e: the step's push asks e's filter
    assert.has_error(function() w:step() end, "world:step: filter of entity 2 failed: nope")
    local x = e.x
    assert.has_error(function() e:move(3, 0, 0) end, "move: filter of entity 2 failed: nope")
    assert.equal(x, e.x)
  end)

  it("a nested e:move whose filter fails is undone, even when the error is caught", function()
    local w, a = mover(nil)
    w:spawn{ x = 2.5, y = 64, z = 3.5, width = 1, solid = true, rules = STILL }
    local b = w:spawn{ x = 0.5, y = 64, z = 3.5, rules = STILL,
                       filter = function() error("inner", 0) end }
    local inner
    a.filter = function()
      inner = inner or { pcall(b.move, b, 3, 0, 0) }
      return true
    end
    assert.has_error(function() a:move(3, 0, 0) end,
      "move: a filter failed inside a filter that caught its error "
      .. "(the first: move: filter of entity 4 failed: inner)")
    assert.same({ false, "move: filter of entity 4 failed: inner" }, inner)
    assert.equal(0.5, b.x)
    assert.equal(0.5, a.x)
  end)

  it("a step failed by a caught nested e:move names that move's error", function()
    local w = world()
    w:spawn{ x = 2.5, y = 64, z = 3.5, width = 1, solid = true, rules = STILL }
    local b = w:spawn{ x = 0.5, y = 64, z = 3.5, rules = STILL }
    local count = 0
    b.filter = function() count = count + 1; error("inner " .. count, 0) end
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ push = false,
      jump = function() pcall(b.move, b, 3, 0, 0) end } }
    a.jumping = true
    local what = "world:step: a filter failed inside a rules hook or filter that caught its error"
    assert.has_error(function() w:step() end,
      what .. " (the first: move: filter of entity 2 failed: inner 1)")
    -- the next failing step names its own first error, not the last step's
    assert.has_error(function() w:step() end,
      what .. " (the first: move: filter of entity 2 failed: inner 2)")
    assert.equal(0.5, b.x)
  end)

  it("a filter may query the world but not spawn inside a step", function()
    local w = world()
    local seen
    w:spawn{ x = 0.5, y = 64, z = 0.5 }
    w:spawn{ x = 0.8, y = 64, z = 0.5, filter = function(self)
      seen = #self.world:query(bp.Collider(-8, 60, -8, 8, 70, 8))
      return true
    end }
    w:step()
    assert.equal(2, seen)
    w:spawn{ x = 3, y = 64, z = 0.5 }
    w:spawn{ x = 3.2, y = 64, z = 0.5, filter = function(self)
      self.world:spawn{ x = 0, y = 70, z = 0 }
      return true
    end }
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.matches("^world:step: filter of entity 4 failed: .*world is locked", err)
    assert.truthy(err:find("inside world:step (from a rules hook or filter)", 1, true))
    assert.equal(4, #w:entities())
  end)

  it("names e:move or e:move_swept as what holds the lock when their filter spawns", function()
    local w, e = mover(function(self)
      self.world:spawn{ x = 0, y = 70, z = 0 }
      return true
    end)
    for _, m in ipairs{ "move", "move_swept" } do
      local ok, err = pcall(e[m], e, 3, 0, 0)
      assert.is_false(ok)
      local prefix = m .. ": filter of entity 2 failed: "
      assert.equal(prefix, err:sub(1, #prefix))
      assert.truthy(err:find("world is locked: blocks, entities and colliders cannot be " ..
                             "added or removed inside e:" .. m .. " (from an entity filter)", 1, true))
      assert.equal(0.5, e.x)
    end
    assert.equal(2, #w:entities())
  end)

  -- The nested move asks its own filters: they must be called with the nested call's
  -- context (this crashed once: the outer context named another C call's stack).
  it("a filter may move another entity whose move asks a filter too", function()
    local w, a = mover(nil)
    w:spawn{ x = 2.5, y = 64, z = 3.5, width = 1, solid = true, rules = STILL }
    local asked_b = 0
    local b = w:spawn{ x = 0.5, y = 64, z = 3.5, rules = STILL,
                       filter = function() asked_b = asked_b + 1; return true end }
    local moved
    a.filter = function()
      if not moved then moved = { b:move(3, 0, 0) } end
      return true
    end
    local dx = a:move(3, 0, 0)
    assert.equal(1, asked_b)
    assert.near(1.2, moved[1], 1e-6) -- b's box (x 0.2..0.8) stops at the solid's face, x = 2
    assert.near(2 - H.F.half_width, b.x, 1e-9)
    assert.near(1.2, dx, 1e-6)
    assert.near(2 - H.F.half_width, a.x, 1e-9)
  end)

  it("a rules hook may call e:move for an entity with a filter during a step", function()
    local w, a = mover(function() return true end)
    local got
    a.rules.jump = function(self) got = { self:move(3, 0, 0) } end
    a.jumping = true
    w:step()
    assert.near(1.2, got[1], 1e-6)
    assert.is_true(a.x + H.F.half_width <= 2)
  end)

  -- Each level takes kilobytes of C stack: Lua 5.1 to 5.4 stop the recursion at their
  -- C call limit, LuaJIT has none and the process died (segmentation fault); the
  -- binding stops it at 100 levels.
  for _, method in ipairs{ "move", "move_swept" } do
    it("a filter that calls e:" .. method .. " on its own entity again fails the move, "
        .. "whatever the interpreter", function()
      local _, e = mover(function(self)
        self[method](self, 3, 0, 0)
        return true
      end)
      local ok, err = pcall(e[method], e, 3, 0, 0)
      assert.is_false(ok)
      assert.truthy(err:find(method .. ": filter of entity 2 failed: ", 1, true))
      assert.truthy(err:find(method .. ": too many nested calls (world:step, e:move and "
        .. "e:move_swept called from hooks and filters: at most 100 deep)", 1, true)
        or err:find("stack overflow", 1, true), err)
      assert.equal(0.5, e.x)
      assert.equal(3, #{ e:move(0, 0, 0) }) -- and the next move runs
    end)
  end

  it("names e:move when its filter starts a step", function()
    local _, e = mover(function(self)
      self.world:step()
      return true
    end)
    local ok, err = pcall(e.move, e, 3, 0, 0)
    assert.is_false(ok)
    assert.truthy(err:find("world:step: cannot step inside e:move (from an entity filter)",
                           1, true))
    assert.equal(0.5, e.x)
  end)
end)
