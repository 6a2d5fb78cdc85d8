-- luacheck: std +busted
-- Lua's own allocations failing inside blockphys calls (world:_fail_alloc, in
-- oom_spec, fails only the C core's): spec/helpers/lua_oom_cases.lua runs in
-- lua_oom_host (spec/helpers/lua_oom_host.c, built by `make test`), whose allocator
-- fails after n allocations, for every n until each call succeeds. A call that fails
-- must leave the world as it was and working (docs/conventions.md: a call that raises changes
-- nothing). Source: our own.

local C = require "helpers.compat"

-- The build directory of the module under test: the first "?.so" entry of the
-- cpath busted was given (make test: ./build/?.so; make sanitize: ./build-asan/?.so).
local dir = package.cpath:match("^([^;]-)%?%.so")
local host = dir and dir .. "lua_oom_host"

local function readable(path)
  local f = path and io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

describe("Lua allocations failing inside blockphys calls", function()
  if not readable(host) then
    it("needs lua_oom_host", function()
      pending("build it with `make test-tools` (make test does): " .. tostring(host))
    end)
    return
  end

  it("leave the world as it was and working, at every allocation of each call", function()
    -- LUA_PATH_5_4 under Lua 5.4 (its own name takes precedence), LUA_PATH under 5.1
    local suffix = _VERSION == "Lua 5.1" and "" or "_" .. _VERSION:match("%d+%.%d+"):gsub("%.", "_")
    local cmd = ("LUA_PATH%s='./lua/?.lua;./lua/?/init.lua;./spec/?.lua;;' LUA_CPATH%s='%s?.so;;' %s " ..
                 "spec/helpers/lua_oom_cases.lua 2>&1"):format(suffix, suffix, dir, host)
    local out, how, code = C.run(cmd)
    assert.is_true(how == "exit" and code == 0, out)
    assert.truthy(out:find("\nbad 0\n$"), out)
    -- every case met at least one failing allocation, so each was really tested
    local cases = 0
    for name, n in out:gmatch("case ([^\n]-) failures (%d+)\n") do
      cases = cases + 1
      assert.is_true(tonumber(n) > 0, name)
    end
    assert.equal(14, cases, out)
    -- the case that once left a half-made entity: the entity tables grow there
    assert.truthy(out:find("case spawn into a new slot (the tables grow) failures", 1, true))
  end)
end)
