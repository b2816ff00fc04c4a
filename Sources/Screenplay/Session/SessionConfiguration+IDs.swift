/// Ids of screens and streams.
extension SessionConfiguration {
    /// A new unguessable id for a screen or a stream, naming this instance when it has a name (the load balancer
    /// routes `/screens/NAME.…` and `/streams/NAME.…` by it).
    func newID() -> String {
        let token = SessionToken.make()
        return instanceName.isEmpty ? token : instanceName + "." + token
    }
}
