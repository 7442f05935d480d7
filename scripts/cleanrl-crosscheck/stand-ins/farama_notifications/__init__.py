notifications = {}
