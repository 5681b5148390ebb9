-- wrk: one session per thread (one connection per thread), each cycle enqueue -> next -> ack.
-- wrk's requests/s is three times the cycles/s.
local admin = os.getenv("ADMIN")
local tokens = dofile(os.getenv("TOKENS"))
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("idx", threads)
end
local state, ticket, counter = "enqueue", nil, 0
function request()
  local session = "cycle-" .. idx
  if state == "enqueue" then
    counter = counter + 1
    return wrk.format("POST", "/v1/sessions/" .. session .. "/queue",
      {["Authorization"] = "Bearer " .. admin}, '{"alert":"app/questionExit","dedupeKey":"c' .. counter .. '"}')
  elseif state == "next" then
    return wrk.format("GET", "/v1/sessions/" .. session .. "/next", {["Authorization"] = "Bearer " .. tokens[idx]})
  else
    return wrk.format("POST", "/v1/sessions/" .. session .. "/queue/" .. ticket .. "/ack",
      {["Authorization"] = "Bearer " .. tokens[idx]}, '{"action":"leave"}')
  end
end
function response(status, headers, body)
  if state == "enqueue" then
    state = "next"
  elseif state == "next" then
    ticket = body:match('"ticket":"([^"]+)"')
    state = ticket and "ack" or "next"
  else
    state = "enqueue"
  end
end
