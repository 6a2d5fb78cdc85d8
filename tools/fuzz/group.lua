--- Runs one group of the attack suite in this process: `lua5.4 tools/fuzz/group.lua
-- GROUP MODE [PATTERN]` (from the checkout, after `make`; PATTERN, a Lua pattern,
-- picks the cases whose names it matches), printing a line per case and
-- "GROUP: N passed, M failed" (tools/fuzz/harness.lua). run.lua starts one process
-- per group, so that a crash names its group and case.
--
-- Source: our own.

package.path = "./tools/fuzz/?.lua;./lua/?.lua;./lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("FUZZ_CPATH") or "./build/?.so") .. ";" .. package.cpath

local H = require "harness"
local group, mode, pattern = arg[1], arg[2] or "short", arg[3]
local cases = require(group).cases(mode)
for _, c in ipairs(cases) do
  if not pattern or c.name:find(pattern) then
    H.run(group .. "/" .. c.name, c.seconds, c.kb, c.run, c.kept_kb, c.setup)
  end
end
H.finish(group)
os.exit(H.failed == 0 and 0 or 1)
