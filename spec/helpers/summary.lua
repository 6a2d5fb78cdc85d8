--- busted output handler: busted's plain terminal output, then one closing line
-- "N passed, N failed" (errors count as failed) that CI reads, after a line
-- "N pending ..." when some specs were not run.
return function(options)
  local busted = require "busted"
  local handler = require "busted.outputHandlers.plainTerminal"(options)
  local function summary()
    local failed = #handler.failures + #handler.errors
    -- pending specs say so before the
    -- last line, which must stay "N passed, N failed"
    if #handler.pendings > 0 then
      io.write(("\n%d pending (not run: see above)"):format(#handler.pendings))
    end
    io.write(("\n%d passed, %d failed\n"):format(#handler.successes, failed))
    io.flush()
    return nil, true
  end
  -- The terminal handler prints one mark per test on one line; break it every 80
  -- marks (a thousand on one line read as noise).
  local marks = 0
  local function wrap()
    marks = marks + 1
    if marks % 80 == 0 and not options.deferPrint then io.write("\n") end
    return nil, true
  end
  -- Subscribe after the terminal handler so that our line comes last.
  local subscribe = handler.subscribe
  function handler.subscribe(h, opts)
    subscribe(h, opts)
    busted.subscribe({ "test", "end" }, wrap)
    busted.subscribe({ "suite", "end" }, summary)
  end
  return handler
end
