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
