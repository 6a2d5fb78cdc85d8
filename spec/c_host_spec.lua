-- examples/c_host: a C program that owns the world, lets rules.lua define its blocks
-- and rules through <blockphys/lua.h>, spawns 10,000 entities and steps them in C.
-- Its digest must equal the same scene run from Lua (examples/c_host/scene.lua): the
-- C host and a Lua game share one core, bit for bit. The host is built by
-- `make test-tools` (make test does) into the build directory of the cpath busted was
-- given, against $(LUA); the scene runs 8 ticks here (rules.lua's 100 in the example)
-- so that the suite stays quick under valgrind (the jumps and first pushes happen in
-- those ticks: a rule changed in rules.lua changes the digest, as the second test shows).
local C = require "helpers.compat"

local dir = package.cpath:match("^([^;]-)%?%.so")
local host = dir and dir .. "c_host"
local TICKS = 8

-- LUA_PATH_5_4 under Lua 5.4 (its own name takes precedence), LUA_PATH under 5.1
local function suffix()
  return _VERSION == "Lua 5.1" and "" or "_" .. _VERSION:match("%d+%.%d+"):gsub("%.", "_")
end

local function readable(path)
  local f = path and io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

describe("examples/c_host", function()
  if not readable(host) then
    it("needs c_host", function()
      pending("build it with `make test-tools` (make test does): " .. tostring(host))
    end)
    return
  end

  it("gives the digest of the same scene run from Lua", function()
    local cmd = ("LUA_PATH%s='./lua/?.lua;./lua/?/init.lua;;' %s examples/c_host/rules.lua %d 2>&1")
      :format(suffix(), host, TICKS)
    local out, how, code = C.run(cmd)
    assert.is_true(how == "exit" and code == 0, out)
    local hex, n, ticks = out:match("^c_host (%x+) (%d+) (%d+)\n$")
    assert.truthy(hex, out)
    assert.are.equal(10000, tonumber(n))
    assert.are.equal(TICKS, tonumber(ticks))
    local run = dofile("examples/c_host/scene.lua")
    local h, count = run("examples/c_host/rules.lua", TICKS)
    assert.are.equal(10000, count)
    assert.are.equal(tonumber(hex, 16), h)
  end)

  it("changes its digest with the rules rules.lua sets (the script is really used)", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write((assert(io.open("examples/c_host/rules.lua")):read("*a")
      :gsub("jump_impulse = 0%.5", "jump_impulse = 0.42")))
    f:close()
    local digests = {}
    for _, rules in ipairs{ "examples/c_host/rules.lua", path } do
      local out = C.run(("LUA_PATH%s='./lua/?.lua;./lua/?/init.lua;;' %s %s %d 2>&1")
        :format(suffix(), host, rules, TICKS))
      digests[#digests + 1] = out:match("^c_host (%x+) ") or out
    end
    os.remove(path)
    assert.are_not.equal(digests[1], digests[2])
  end)
end)
