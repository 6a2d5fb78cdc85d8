--- busted output handler: busted's plain terminal output, then one closing line
-- "N passed, N failed" (errors count as failed) that CI reads.
return function(options)
  local busted = require "busted"
  local handler = require "busted.outputHandlers.plainTerminal"(options)
  local function summary()
    local failed = #handler.failures + #handler.errors
    io.write(("\n%d passed, %d failed\n"):format(#handler.successes, failed))
    io.flush()
    return nil, true
  end
  -- Subscribe after the terminal handler so that our line comes last.
  local subscribe = handler.subscribe
  function handler.subscribe(h, opts)
    subscribe(h, opts)
    busted.subscribe({ "suite", "end" }, summary)
  end
  return handler
end
