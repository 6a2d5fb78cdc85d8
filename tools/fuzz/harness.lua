--- The case runner of the attack suite (tools/fuzz/): each case runs under pcall
-- with a time budget and a watchdog, and its Lua memory is measured before, at its
-- peak and after. One line per case on stdout:
--
--   ok    <group>/<case>  <seconds> s  peak +<KB> KB  kept +<KB> KB
--   FAIL  <group>/<case>: <why>
--
-- and "START <group>/<case>" before it, so that the driver (run.lua) can name the
-- case that was running when a child process crashed or was killed.
--
-- A case is a function that returns normally when every check held, or raises a
-- string starting with "FUZZ: " (`harness.check`) when one failed. Any other error
-- escaping a case is a failure too: the library's calls are expected to be wrapped
-- in pcall by the case, which checks their errors with `harness.is_message`.
--
-- Written in portable Lua (no integer division, no bitwise operators, no goto).
--
-- Source: our own.

local harness = {}

local clock = os.clock
local format = string.format

harness.passed, harness.failed = 0, 0

--- Raises a check failure unless `cond` holds: `harness.check(x == 1, "x is %s", x)`.
function harness.check(cond, fmt, ...)
  if not cond then error("FUZZ: " .. format(fmt, ...), 0) end
  return cond
end

--- Whether `err` is an error message the library may give: a non-empty string.
function harness.is_message(err)
  return type(err) == "string" and #err > 0
end

-- The process's resident memory now and at its peak, in KB, from Linux's
-- /proc/self/status; nil elsewhere.
local function rss()
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local now, peak
  for line in f:lines() do
    now = now or tonumber(line:match("^VmRSS:%s+(%d+)"))
    peak = peak or tonumber(line:match("^VmHWM:%s+(%d+)"))
  end
  f:close()
  return now, peak
end

-- Resets the peak that rss() reads (Linux: writing 5 to /proc/self/clear_refs);
-- whether it could.
local function reset_peak()
  local f = io.open("/proc/self/clear_refs", "w")
  if not f then return false end
  local ok = f:write("5")
  f:close()
  return ok and true or false
end

-- The running case's watchdog: the hook raises past `hard` seconds (a case that
-- hangs in Lua), and keeps the peak of collectgarbage("count") it sees.
local watch = { start = 0, hard = 0, peak = 0 }

local function hook()
  local kb = collectgarbage("count")
  if kb > watch.peak then watch.peak = kb end
  if clock() - watch.start > watch.hard then
    watch.fired = true
    error("FUZZ: watchdog: still running after " .. watch.hard .. " s", 0)
  end
end

--- Runs case `fn` named `name` (given what `setup`, if any, returned: it runs
-- before the clock starts and memory is measured) with a budget of `seconds` of CPU time and `kb`
-- kilobytes of memory above what was in use before it: the process's peak resident
-- memory where Linux tells it (the C core's allocations and the document strings
-- included), else the peak of Lua's own memory as sampled every 10,000 VM
-- instructions. Lua memory still held after a full collection once the case
-- returned, past `kept_kb` (default 1024), fails it too: nothing a failed call
-- built may stay reachable.
function harness.run(name, seconds, kb, fn, kept_kb, setup)
  io.write("START ", name, "\n")
  io.flush()
  local input
  if setup then -- built before the clock starts (a hostile document): not the library's cost
    local ok, v = pcall(setup)
    if not ok then
      harness.failed = harness.failed + 1
      io.write("FAIL  ", name, ": setup: ", tostring(v), "\n")
      return false
    end
    input = v
  end
  collectgarbage()
  collectgarbage()
  local before = collectgarbage("count")
  local rss_before = rss()
  local rss_peak = rss_before and reset_peak()
  watch.start, watch.hard, watch.peak, watch.fired = clock(), seconds * 4 + 2, before, false
  debug.sethook(hook, "", 10000)
  local ok, err = pcall(fn, input) -- a case may return a note for its line (sizes, rates)
  debug.sethook()
  local t = clock() - watch.start
  local peak = watch.peak - before
  if rss_peak then -- memory freed earlier and reused does not show in RSS: the larger
    local _, hwm = rss()
    if hwm - rss_before > peak then peak = hwm - rss_before end
  end
  collectgarbage()
  collectgarbage()
  local kept = collectgarbage("count") - before
  local why
  if watch.fired then
    why = format("watchdog: still running after %d s (budget %.2f s)", watch.hard, seconds)
  elseif not ok then
    why = type(err) == "string" and err or ("a non-string error: " .. tostring(err))
  elseif t > seconds then
    why = format("took %.2f s (budget %.2f s)", t, seconds)
  elseif peak > kb then
    why = format("peak memory +%.0f KB (budget %.0f KB)", peak, kb)
  elseif kept > (kept_kb or 1024) then
    why = format("kept +%.0f KB after a full collection", kept)
  end
  if why then
    harness.failed = harness.failed + 1
    io.write("FAIL  ", name, ": ", why, "\n")
  else
    harness.passed = harness.passed + 1
    io.write(format("ok    %-48s %6.2f s  peak +%8.0f KB  kept +%5.0f KB%s\n", name, t, peak, kept,
      type(err) == "string" and "  " .. err or ""))
  end
  io.flush()
  return not why
end

--- The closing line of a group: "<group>: N passed, M failed".
function harness.finish(group)
  io.write(format("%s: %d passed, %d failed\n", group, harness.passed, harness.failed))
  io.flush()
end

--- A deterministic generator (a 31-bit linear congruential one, plain arithmetic):
-- `r(n)` gives an integer in 1..n, `r()` a float in [0, 1).
function harness.rng(seed)
  local s = seed % 2147483647
  if s <= 0 then s = s + 2147483646 end
  return function(n)
    s = (s * 48271) % 2147483647
    if n then return s % n + 1 end
    return s / 2147483647
  end
end

return harness
