/**
 * The access log line both APIs write (the HTTP API and the streaming REST API): the same fields,
 * so one query reads both. `routeKey` is the API kind's own variable for the route.
 */
export const accessLogJson = (routeKey: string) =>
  JSON.stringify({
    requestId: '$context.requestId',
    // The CloudFront edge; the viewer's address is in the audit record (CloudFront-Viewer-Address).
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey,
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    userAgent: '$context.identity.userAgent',
  });
