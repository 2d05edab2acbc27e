package app.parley.inbox;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
