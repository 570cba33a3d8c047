import Foundation
import Hummingbird
import Logging
import Slate
import SlatePostgres

/// An error the API answers with: a status and a JSON body
/// `{"error": {"status": 404, "code": "not_found", "message": "…"}}`.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String

    public init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func notFound(_ message: String) -> APIError { APIError(.notFound, code: "not_found", message) }
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, code: "bad_request", message) }
    static func invalid(_ message: String) -> APIError { APIError(.unprocessableContent, code: "invalid", message) }
    static func conflict(_ message: String) -> APIError { APIError(.conflict, code: "conflict", message) }
    static func unavailable(_ message: String) -> APIError {
        APIError(.serviceUnavailable, code: "unavailable", message)
    }
    static func `internal`(_ message: String) -> APIError {
        APIError(.internalServerError, code: "internal", message)
    }

    struct Body: Encodable {
        struct Detail: Encodable {
            var status: Int
            var code: String
            var message: String
        }
        var error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(error: .init(status: status.code, code: code, message: message))
        let data = try JSONEncoder().encode(body)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The API's answer to any error a handler threw: bad input is a 4xx, never a 500.
    static func from(_ error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case let error as HTTPError:
            // Hummingbird's: unknown routes, undecodable JSON, path parameters of the wrong type.
            return APIError(error.status, code: Self.code(for: error.status), error.body ?? error.status.reasonPhrase)
        case let error as any HTTPResponseError:
            // A body over the size limit (NIOTooManyBytesError), and the like.
            let message =
                error.status == .contentTooLarge
                ? "the request body is larger than \(AppRequestContext.maximumBodySize) bytes"
                : error.status.reasonPhrase
            return APIError(error.status, code: Self.code(for: error.status), message)
        case is DecodingError:
            return .badRequest("the body is not the JSON this endpoint expects")
        case let error as DatabaseError:
            return from(resultCode: error.resultCode, extended: error.extendedResultCode, isShutdown: error.isShutdown)
        case let error as PostgreSQLError:
            return from(resultCode: error.resultCode.primary, extended: error.resultCode, isShutdown: false)
        default:
            return nil
        }
    }

    /// Constraint violations are the client's: a duplicate is a conflict, a missing list a 404,
    /// a value the schema refuses is invalid. A database that shuts down or is locked is
    /// unavailable for now.
    private static func from(resultCode: ResultCode, extended: ResultCode, isShutdown: Bool) -> APIError? {
        if isShutdown { return .unavailable("the server is shutting down") }
        switch extended {
        case .constraintUnique, .constraintPrimaryKey: return .conflict("a list with this title already exists")
        case .constraintForeignKey: return .notFound("no such list")
        case .constraintCheck, .constraintNotNull: return .invalid("a value breaks a rule of the schema")
        default: break
        }
        switch resultCode {
        case .constraint: return .invalid("a value breaks a rule of the schema")
        case .busy, .locked: return .unavailable("the database is busy; try again")
        default: return nil
        }
    }

    private static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .badRequest: "bad_request"
        case .contentTooLarge: "too_large"
        case .methodNotAllowed: "method_not_allowed"
        case .unsupportedMediaType: "unsupported_media_type"
        default: status.code < 500 ? "client_error" : "internal"
        }
    }
}

/// Turns every error into the API's JSON error. Errors that are not the client's are logged and
/// answered with a 500 whose body says nothing of the internals.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            if let answer = APIError.from(error) {
                if answer.status.code >= 500 {
                    context.logger.error("Request failed", metadata: ["error": "\(error)"])
                }
                return try answer.response(from: request, context: context)
            }
            context.logger.error("Request failed", metadata: ["error": "\(error)", "error.type": "\(type(of: error))"])
            return try APIError.internal("the server failed to answer this request").response(
                from: request, context: context)
        }
    }
}
