-- luacheck: std +busted
-- The module's code stays mapped while the state closes (csrc/binding/lblockphys.c,
-- pin_module): a finalizer that runs after the package library unloaded the module
-- and calls blockphys (Lua 5.1 and LuaJIT finalize a newproxy made before require
-- "blockphys" after the module's handle) jumped into unmapped code: a segfault at
-- exit. Source: our own.
local C = require "helpers.compat"

describe("a finalizer that runs after the module's handle while the state closes", function()
  it("calls blockphys functions without crashing", function()
    if not rawget(_G, "newproxy") then return end -- Lua 5.2+: the handle is finalized last
    local script = [[
      local p = newproxy(true) -- older than the module: finalized after its handle
      local bp = require "blockphys"
      local w = bp.World()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      getmetatable(p).__gc = function()
        local ok1 = pcall(w.stats, w)
        local ok2, err = pcall(function() return e.x end)
        io.write("finalizer ", tostring(ok1), " ", tostring(ok2), " ", tostring(err), "\n")
        io.stdout:flush()
      end
      KEEP = p
    ]]
    local setup = ("package.path = %q; package.cpath = %q"):format(package.path, package.cpath)
    local cmd = ("%s -e '%s' -e '%s' 2>&1"):format(C.LUA, setup:gsub("'", [['\'']]),
      script:gsub("'", [['\'']]))
    local out, how, code = C.run(cmd)
    assert.equal("exit", how, out)
    assert.equal(0, code, out)
    assert.matches("finalizer false false .*entity belongs to a destroyed world", out)
  end)
end)
