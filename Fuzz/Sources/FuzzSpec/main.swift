import AlertServer
import AlertSpec
import Foundation
import FuzzSupport
import MicroHTTP

// POST /v1/specs/validate with the input as the body: SpecReader decodes it (JSON, unknown
// members, a pointer per problem), SpecValidator checks it against the built-in catalogs (so
// `next` actions are resolved with their parameters), and the router encodes the answer.
//
// Any body must get a client answer: 200 with the normalized spec, or 4xx problem+json. A 5xx
// or a trap is a bug. A normalized spec, posted again, must be valid as it is.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let response = FuzzService.validate(Array(UnsafeRawBufferPointer(start: start, count: count)))
    guard response.status == 200 else { return 0 }
    guard let answer = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
        let spec = answer["spec"], let again = try? JSONSerialization.data(withJSONObject: spec)
    else { fatalError("a 200 answer without a spec: \(String(decoding: response.body, as: UTF8.self))") }
    let second = FuzzService.validate(Array(again))
    if second.status != 200 {
        fatalError("the normalized spec is refused (\(second.status)): \(String(decoding: second.body, as: UTF8.self))")
    }
    return 0
}

extension FuzzService {
    static func validate(_ body: [UInt8]) -> HTTPResponse {
        let request = HTTPRequest(
            method: "POST", path: "/v1/specs/validate", headers: ["Content-Type": "application/json"], body: body)
        let response = answer(request)
        if response.status >= 500 {
            fatalError("\(response.status) for a client's spec: \(String(decoding: response.body, as: UTF8.self))")
        }
        return response
    }
}
