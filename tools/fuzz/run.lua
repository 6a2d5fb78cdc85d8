--- The attack suite: `make fuzz` (FUZZ=full, minutes) or `make fuzz FUZZ=short`
-- (CI, well under a minute). Runs each case of each group (files, misuse, exhaust) in
-- a process of its own under `timeout`, so that a crash or a hang is reported with
-- its case and each case's peak memory is its own, and prints one closing line:
-- "fuzz (MODE, T s): N passed, M failed".
--
-- Usage (from the checkout, after `make`): lua5.4 tools/fuzz/run.lua [short|full]
--
-- Source: our own.

local mode = arg[1] or "full"
assert(mode == "short" or mode == "full", "usage: run.lua [short|full]")
local lua = os.getenv("LUA") or "lua5.4"
-- FUZZ_GROUPS (space-separated) picks groups: CI runs the portable round2 under the
-- other interpreters.
local GROUPS = { "files", "misuse", "exhaust", "round2", "snapshots" }
if os.getenv("FUZZ_GROUPS") and os.getenv("FUZZ_GROUPS") ~= "" then
  GROUPS = {}
  for g in os.getenv("FUZZ_GROUPS"):gmatch("%S+") do GROUPS[#GROUPS + 1] = g end
end
local LIMIT = mode == "full" and 1200 or 120 -- seconds per case process (the watchdog comes first)

local passed, failed = 0, 0
local t0 = os.time()

-- Runs `group.lua group mode which`; returns its output lines and how it ended.
local function child(group, which, limit, on_line)
  local cmd = string.format("timeout %d %s tools/fuzz/group.lua %s %s %s 2>&1", limit, lua, group, mode, which)
  local p = assert(io.popen(cmd, "r"))
  for line in p:lines() do on_line(line) end
  return p:close()
end

for _, group in ipairs(GROUPS) do
  local count
  local _, how, code = child(group, "count", 60, function(line) count = count or tonumber(line) end)
  if not count then
    failed = failed + 1
    print(string.format("FAIL  %s: cannot list its cases (%s %s)", group, tostring(how), tostring(code)))
    count = 0
  end
  for i = 1, count do
    local running, closed = nil, false
    _, how, code = child(group, tostring(i), LIMIT, function(line)
      local name = line:match("^START (.*)$")
      if name then
        running = name
      elseif line:match("^" .. group .. ": %d+ passed") then
        closed = true
      else
        print(line)
        if line:match("^ok ") then passed, running = passed + 1, nil
        elseif line:match("^FAIL ") then failed, running = failed + 1, nil end
      end
    end)
    if not closed or how == "signal" or (how == "exit" and code ~= 0 and code ~= 1) then
      failed = failed + 1
      print(string.format("FAIL  %s case %d%s: the process ended (%s %s)%s", group, i,
        running and (" (" .. running .. ")") or "", tostring(how), tostring(code),
        code == 124 and ", killed by timeout" or ""))
    end
    io.stdout:flush()
  end
end
print(string.format("fuzz (%s, %d s): %d passed, %d failed", mode, os.time() - t0, passed, failed))
os.exit(failed == 0 and 0 or 1)
