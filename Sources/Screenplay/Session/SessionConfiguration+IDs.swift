/// Ids of screens and streams.
extension SessionConfiguration {
    /// A new unguessable id for a screen or a stream, naming this instance when it has a name (the load balancer
    /// routes `/screens/NAME.…` and `/streams/NAME.…` by it).
    func newID() -> String {
        let token = SessionToken.make()
        return instanceName.isEmpty ? token : instanceName + "." + token
    }

    /// Whether `id` names this instance: it starts with this instance's name and a `.` (any id, for one instance
    /// without a name). A proxy sends a screen's requests to the instance its id names.
    func isOwnID(_ id: String) -> Bool {
        instanceName.isEmpty ? !id.contains(".") : id.hasPrefix(instanceName + ".")
    }
}
