--- Runs cases of one group of the attack suite in this process: `lua5.4
-- tools/fuzz/group.lua GROUP MODE [WHICH]` (from the checkout, after `make`), printing
-- a line per case and "GROUP: N passed, M failed" (tools/fuzz/harness.lua). WHICH is
-- a case's number (run.lua starts one process per case, so that a crash names its
-- case and each case's memory is measured in a fresh process), "count" (print the
-- number of cases), or a Lua pattern picking the cases whose names it matches; all
-- cases without it.
--
-- Source: our own.

package.path = "./tools/fuzz/?.lua;./lua/?.lua;./lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("FUZZ_CPATH") or "./build/?.so") .. ";" .. package.cpath

local H = require "harness"
local group, mode, which = arg[1], arg[2] or "short", arg[3]
local cases = require(group).cases(mode)
if which == "count" then
  print(#cases)
  os.exit(0)
end
local number = tonumber(which)
for i, c in ipairs(cases) do
  if (number and i == number) or (not number and (not which or c.name:find(which))) then
    H.run(group .. "/" .. c.name, c.seconds, c.kb, c.run, c.kept_kb, c.setup)
  end
end
H.finish(group)
os.exit(H.failed == 0 and 0 or 1)
