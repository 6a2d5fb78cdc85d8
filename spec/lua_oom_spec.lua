-- luacheck: std +busted
-- Lua's own allocations failing inside blockphys calls (world:_fail_alloc, in
-- oom_spec, fails only the C core's): spec/helpers/lua_oom_cases.lua runs in
-- lua_oom_host (spec/helpers/lua_oom_host.c, built by `make test`), whose allocator
-- fails after n allocations, for every n until each call succeeds. A call that fails
-- must leave the world as it was and working (docs/conventions.md: a call that raises changes
-- nothing). Source: our own.

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
    local cmd = ("LUA_PATH_5_4='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH_5_4='%s?.so;;' %s " ..
                 "spec/helpers/lua_oom_cases.lua 2>&1"):format(dir, host)
    local p = assert(io.popen(cmd))
    local out = p:read("a")
    local ok = p:close()
    assert.is_true(ok, out)
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
