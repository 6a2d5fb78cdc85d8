-- luacheck: std +busted
-- LuaJIT's fast path (lua/blockphys/ffi.lua, csrc/binding/lffi.c): active under LuaJIT
-- only, and with the same results and the same errors as the classic functions it
-- stands for: spec/helpers/ffi_cases.lua runs with it and without it
-- (BLOCKPHYS_NO_FFI) in child interpreters and must print the same lines. Source: our
-- own.
local C = require "helpers.compat"
local fast = require "blockphys.ffi"

-- The cpath busted was given (the build under test), for the children.
local function run(no_ffi)
  local setup = ("package.path = %q; package.cpath = %q"):format(package.path, package.cpath)
  local cmd = ("%s%s -e '%s' spec/helpers/ffi_cases.lua 2>&1"):format(
    no_ffi and "BLOCKPHYS_NO_FFI=1 " or "", C.LUA, setup:gsub("'", [['\'']]))
  local out, how, code = C.run(cmd)
  assert.is_true(how == "exit" and code == 0, out)
  return out
end

describe("the LuaJIT fast path", function()
  it("is active under LuaJIT only", function()
    assert.equal(C.JIT, fast.active)
  end)

  it("refuses a userdata that only claims to be an Entity or a World", function()
    -- newproxy (Lua 5.1, LuaJIT) makes a userdata whose getmetatable answers what its
    -- __metatable says: the fast path must not take it for an entity (it crashed)
    local newproxy = rawget(_G, "newproxy")
    if not newproxy then return end -- Lua 5.2+: no userdata from plain Lua
    local bp = require "blockphys"
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    local function fake(name)
      local u = newproxy(true)
      getmetatable(u).__metatable = name
      return u
    end
    local u = fake("blockphys.Entity")
    local ok, err = pcall(e.set_input, u, 1, 0, 0)
    assert.is_false(ok)
    assert.matches("blockphys.Entity expected, got userdata", err, 1, true)
    ok, err = pcall(w.positions, fake("blockphys.World"))
    assert.is_false(ok)
    assert.matches("blockphys.World expected, got userdata", err, 1, true)
    local index = debug.getmetatable(e).__index
    ok, err = pcall(index, u, "x")
    assert.is_false(ok)
    assert.matches("blockphys.Entity expected, got userdata", err, 1, true)
    ok, err = pcall(debug.getmetatable(e).__newindex, u, "vx", 1)
    assert.is_false(ok)
    assert.matches("blockphys.Entity expected, got userdata", err, 1, true)
  end)

  -- Elsewhere there is no fast path to compare (the test above checks it is off), so
  -- the comparison exists under LuaJIT only, rather than as a pending test.
  if not C.JIT then return end
  it("gives the results and errors of the classic functions", function()
    local with, without = run(false), run(true)
    assert.truthy(#with > 10000)
    -- line by line, so that a difference shows where it is
    local a, b = {}, {}
    for l in with:gmatch("[^\n]+") do a[#a + 1] = l end
    for l in without:gmatch("[^\n]+") do b[#b + 1] = l end
    for i = 1, math.max(#a, #b) do
      assert.equal(b[i], a[i], "line " .. i)
    end
  end)
end)
