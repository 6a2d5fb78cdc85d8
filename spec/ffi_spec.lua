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

  it("keeps each bulk call's numbers when a collection inside it runs the same call", function()
    -- A count hook forces a collection inside the fast path's Lua loops (under LuaJIT,
    -- with the JIT off: hooks do not run in compiled traces); the finalizer it runs
    -- calls world:positions and world:set_inputs of another world. The fast path shared
    -- one buffer: the outer positions call returned the other world's coordinates.
    local bp = require "blockphys"
    local a, b = bp.World(), bp.World()
    local N = 3000
    for i = 1, N do a:spawn{ x = i, y = 0, z = 0 } end
    for i = 1, N do b:spawn{ x = -i, y = 5, z = 7 } end
    local a_inputs, b_inputs = {}, {}
    for i = 1, N do
      local k = 5 * i
      a_inputs[k - 4], a_inputs[k - 3], a_inputs[k - 2], a_inputs[k - 1] = 0.5, 0.5, k, false
      b_inputs[k - 4], b_inputs[k - 3], b_inputs[k - 2], b_inputs[k - 1] = -1, -1, 10, true
    end
    local during, inside = false, 0
    local newproxy = rawget(_G, "newproxy")
    local function arm()
      local function f()
        if during then inside = inside + 1 end
        b:positions()
        b:set_inputs(b_inputs)
      end
      if newproxy then
        local u = newproxy(true)
        getmetatable(u).__gc = f
      else
        setmetatable({}, { __gc = f })
      end
    end
    local function inside_collection(call)
      local t = {}
      arm()
      local fired = false
      during = true
      debug.sethook(function()
        if not fired then fired = true; collectgarbage() end
      end, "", 1000)
      local r = call(t)
      debug.sethook()
      during = false
      return r
    end
    local jit = rawget(_G, "jit")
    if jit then jit.off(); jit.flush() end
    local ok, err = pcall(function()
      for _ = 1, 3 do
        local out = inside_collection(function(t) return a:positions(t) end)
        assert.equal(3 * N, #out)
        for i = 1, N do
          if out[3 * i - 2] ~= i or out[3 * i - 1] ~= 0 or out[3 * i] ~= 0 then
            error(("positions: entity %d at %s, %s, %s"):format(i, out[3 * i - 2], out[3 * i - 1], out[3 * i]))
          end
        end
        inside_collection(function() a:set_inputs(a_inputs) end)
        for i, e in ipairs(a:entities()) do
          local k = 5 * i
          if e.forward ~= 0.5 or e.strafe ~= 0.5 or e.yaw ~= k or e.jumping ~= false then
            error(("set_inputs: entity %d got %s, %s, %s"):format(i, e.forward, e.strafe, e.yaw))
          end
        end
      end
    end)
    if jit then jit.on() end
    assert(ok, err)
    -- the finalizer ran inside the calls (the fast path's Lua loops; the classic C
    -- functions run no hook inside)
    if C.JIT then assert.equal(6, inside) end
    collectgarbage()
    collectgarbage()
    assert.equal(-1, b:entities()[1].forward) -- b's inputs were set by the finalizers
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
