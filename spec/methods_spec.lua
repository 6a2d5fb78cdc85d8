-- luacheck: std +busted
-- The method tables a script sees. The World's internal methods (`_`-prefixed: the
-- specs' test hooks and paste's lock check, csrc/binding/ltesting.c) answer
-- `w:_name(...)` through the method table's metatable, but pairs over the methods of
-- World, Entity and Collider lists the API only.
local bp = require "blockphys"
local C = require "helpers.compat"

-- The keys of t that start with "_", sorted.
local function underscored(t)
  local found = {}
  for k in pairs(t) do
    if type(k) == "string" and k:sub(1, 1) == "_" then found[#found + 1] = k end
  end
  table.sort(found)
  return found
end

describe("method tables", function()
  it("list no _-prefixed key by pairs (World, Entity, Collider)", function()
    local w = bp.World()
    local e = w:spawn{ x = 0.5, y = 0, z = 0.5 }
    local c = bp.Collider(0, 0, 0, 1, 1, 1)
    assert.same({}, underscored(bp.core.World_methods))
    assert.same({}, underscored(debug.getmetatable(w).methods))
    assert.same({}, underscored(debug.getmetatable(e).methods))
    assert.same({}, underscored(debug.getmetatable(c).methods))
    -- Entity fields and methods are found in one table, the field metamethods' upvalue
    -- (Lua 5.1's debug.getupvalue does not read a C function's upvalues)
    if _VERSION ~= "Lua 5.1" or C.JIT then
      local _, fields = debug.getupvalue(debug.getmetatable(e).__index, 1)
      assert.is_table(fields)
      assert.same({}, underscored(fields))
    end
    -- the API is listed, World:paste (written in Lua) included
    assert.is_function(rawget(bp.core.World_methods, "step"))
    assert.is_function(rawget(bp.core.World_methods, "paste"))
    assert.is_nil(rawget(bp.core.World_methods, "_check_unlocked"))
  end)

  it("still answer the internal World methods", function()
    local w = bp.World()
    assert.is_function(w._check_unlocked)
    assert.is_function(bp.core.World_methods._fail_alloc)
    assert.has_no_error(function() w:_check_unlocked("paste") end)
    assert.equal(0, w:_fail_alloc(0))
    local handle = w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))
    assert.equal("integer", C.mtype(w:_reuse_collider(handle, 1)))
    -- inside a step, _check_unlocked raises the lock error, naming its caller
    local err
    local e = w:spawn{ x = 5.5, y = 0, z = 0.5, rules = bp.rules.beta173{
      jump = function() err = select(2, pcall(w._check_unlocked, w, "paste")) end } }
    e.jumping = true
    w:step()
    assert.equal("paste: world is locked: blocks, entities and colliders cannot be added "
      .. "or removed inside world:step (from a rules hook or filter)", err)
    w:destroy()
    assert.has_error(function() w:_check_unlocked("paste") end,
      "calling '_check_unlocked' on bad self (world has been destroyed)")
  end)
end)
